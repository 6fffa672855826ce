import CLibPQ
import Dispatch
import FormCore
import FormStoragePostgres
import Foundation

/// Load, save and 8 concurrent writers over PostgreSQL: `PostgresFormStore`
/// against raw libpq doing the same statements over the same socket. Run
/// with `--postgres URL` (a database the bench may create a table in).
struct PostgresCases {
    let url: String
    let size: RunSize
    static let rowCount = 1000
    static let writers = 8

    func prepare() throws -> PostgresFormStore {
        try Person.createInPostgres(RawPostgres(url: url), count: Self.rowCount)
        return try PostgresFormStore(url: url, maxConnections: Self.writers)
    }

    /// FormSession.open on one record decoded into `Person`, against a
    /// prepared SELECT by key read into the same struct.
    func load(_ store: PostgresFormStore) throws -> ResultRow {
        let raw = try RawPostgres(url: url)
        let perRound = size.pick(smoke: 1, quick: 300, full: 1000)
        var next = 0
        func key() -> Int64 {
            next = next % Self.rowCount + 1
            return Int64(next)
        }
        let paired = try interleaved(rounds: size.pick(smoke: 1, quick: 11, full: 21), baseline: {
            try seconds {
                for _ in 0..<perRound {
                    try raw.run(Person.postgresSelectSQL, [String(key())]) {
                        blackHole(Person(result: $0))
                    }
                }
            } / Double(perRound)
        }, subject: {
            try seconds {
                for _ in 0..<perRound {
                    let session = try FormSession.open(Person.form, key: RecordKey("id", .int(key())), backend: store)
                    blackHole(try ModelCoder.decode(Person.self, from: session.current))
                }
            } / Double(perRound)
        })
        return .ratio("PostgreSQL load", paired, unit: "µs", scale: 1e6, atMost: 1.3)
    }

    /// Set one field and save, against BEGIN / the conflict check's SELECT …
    /// FOR UPDATE / UPDATE / COMMIT, the statements a save needs.
    func save(_ store: PostgresFormStore) throws -> ResultRow {
        let raw = try RawPostgres(url: url)
        let session = try FormSession.open(Person.form, key: RecordKey("id", 1), backend: store)
        let lock = "SELECT city FROM \(Person.table) WHERE id = $1 FOR UPDATE"
        let update = "UPDATE \(Person.table) SET city = $1 WHERE id = $2"
        let perRound = size.pick(smoke: 1, quick: 200, full: 500)
        var counter = 0
        let paired = try interleaved(rounds: size.pick(smoke: 1, quick: 11, full: 21), baseline: {
            try seconds {
                for _ in 0..<perRound {
                    counter += 1
                    try raw.run("BEGIN", [])
                    try raw.run(lock, ["2"])
                    try raw.run(update, ["Paris \(counter)", "2"])
                    try raw.run("COMMIT", [])
                }
            } / Double(perRound)
        }, subject: {
            try seconds {
                for _ in 0..<perRound {
                    counter += 1
                    try session.set("city", input: "Paris \(counter)")
                    guard case .saved = try session.save() else { throw BenchError("save did not save") }
                }
            } / Double(perRound)
        })
        return .ratio("PostgreSQL save", paired, unit: "µs", scale: 1e6, atMost: 1.3,
                      note: "FormStore's save also reads the row back (RETURNING) and deletes the session's draft")
    }

    /// 8 tasks opening a record, setting a field and saving through the async
    /// API, against 8 threads doing the raw statements on a connection each.
    func writers(_ store: PostgresFormStore) throws -> ResultRow {
        let perWorker = size.pick(smoke: 2, quick: 100, full: 400)
        let total = Double(Self.writers * perWorker)
        let rawSeconds = try seconds {
            let failures = DispatchQueue(label: "failures")
            nonisolated(unsafe) var failure: (any Error)?
            DispatchQueue.concurrentPerform(iterations: Self.writers) { worker in
                do {
                    let raw = try RawPostgres(url: url)
                    for step in 0..<perWorker {
                        let id = String(worker * 100 + step % 100 + 1)
                        try raw.run("BEGIN", [])
                        try raw.run(Person.postgresSelectSQL + " FOR UPDATE", [id])
                        try raw.run("UPDATE \(Person.table) SET city = $1 WHERE id = $2", ["Rome \(step)", id])
                        try raw.run("COMMIT", [])
                    }
                } catch {
                    failures.sync { failure = error }
                }
            }
            if let failure { throw failure }
        }
        let form = Person.form
        let librarySeconds = try seconds {
            try waitFor {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<Self.writers {
                        group.addTask {
                            for step in 0..<perWorker {
                                let key = RecordKey("id", .int(Int64(worker * 100 + step % 100 + 1)))
                                let session = try await FormSession.open(form, key: key, backend: store)
                                try session.set("city", input: "Oslo \(step)")
                                guard case .saved = try await session.save() else { throw BenchError("save did not save") }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
        let library = total / librarySeconds
        let baseline = total / rawSeconds
        return ResultRow("PostgreSQL, 8 writers: throughput", formstore: library, baseline: baseline, unit: "writes/s",
                         goal: "≥ 0.5×", met: library / baseline >= 0.5,
                         note: "open + set + save per request through the async API; baseline: 8 threads on raw libpq")
    }
}
