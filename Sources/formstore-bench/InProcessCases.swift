import CSQLite
import FormCore
import FormStorage
import Foundation

/// Load, save and keystroke: FormStore's library against the C API, in one process.
struct InProcessCases {
    let directory: Scratch
    let size: RunSize
    /// Rows in the 20-column table.
    var rowCount: Int { 1000 }

    /// Creates the database the cases share; returns its path.
    func prepare() throws -> String {
        let path = directory.file("library.sqlite")
        try Person.create(in: RawConnection(path: path), count: rowCount)
        return path
    }

    // MARK: Load

    /// FormSession.open on one record, decoded into `Person` by ModelCoder, against
    /// a cached SELECT by key reading the 20 columns into the same struct.
    func load(_ path: String) throws -> ResultRow {
        let store = try openStore(path)
        let form = Person.form
        let raw = try RawConnection(path: path)
        let select = try raw.prepare(Person.selectSQL)
        let perRound = size.pick(smoke: 1, quick: 500, full: 2000)
        var next = 0
        func key() -> Int64 {
            next = next % rowCount + 1
            return Int64(next)
        }
        let paired = try interleaved(rounds: size.pick(smoke: 1, quick: 21, full: 41), baseline: {
            seconds {
                for _ in 0..<perRound {
                    sqlite3_bind_int64(select.pointer, 1, key())
                    guard sqlite3_step(select.pointer) == SQLITE_ROW else { fatalError("no row") }
                    blackHole(Person(row: select))
                    sqlite3_reset(select.pointer)
                }
            } / Double(perRound)
        }, subject: {
            try seconds {
                for _ in 0..<perRound {
                    let session = try FormSession.open(form, key: RecordKey("id", .int(key())), backend: store)
                    blackHole(try session.model(as: Person.self))
                }
            } / Double(perRound)
        })
        return .ratio("load", paired, unit: "µs", scale: 1e6, atMost: 1.5)
    }

    // MARK: Save

    /// Set one field and save, against BEGIN IMMEDIATE / cached UPDATE / COMMIT.
    func save(_ path: String, _ synchronous: Configuration.Synchronous, atMost limit: Double) throws -> ResultRow {
        let store = try openStore(path, synchronous: synchronous)
        let raw = try RawConnection(path: path, synchronous: synchronous.rawValue)
        let begin = try raw.prepare("BEGIN IMMEDIATE")
        let update = try raw.prepare("UPDATE \(Person.table) SET city = ? WHERE id = ?")
        let commit = try raw.prepare("COMMIT")
        let session = try FormSession.open(Person.form, key: RecordKey("id", 1), backend: store)
        let (rounds, perRound) = saveRounds(synchronous)
        let paired = try interleavedSaves(session, field: "city", rounds: rounds, perRound: perRound) { city in
            try begin.run()
            sqlite3_bind_text(update.pointer, 1, city, -1, formstore_sqlite3_transient())
            sqlite3_bind_int64(update.pointer, 2, 2)
            try update.run()
            try commit.run()
        }
        return .ratio("save (synchronous=\(synchronous.rawValue))", paired, unit: "µs", scale: 1e6, atMost: limit)
    }

    /// `save` on a copy of the database without the history tables (a
    /// save then keeps no history): what the session's save costs besides
    /// the history it writes, against the same bare `UPDATE`.
    func saveWithoutHistory(_ path: String, _ synchronous: Configuration.Synchronous) throws -> ResultRow {
        let copy = directory.file("save-no-history.sqlite")
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try openStore(copy).database.write { conn in
            try conn.execute("DROP TABLE formstore_change_fields")
            try conn.execute("DROP TABLE formstore_changes")
        }
        let row = try save(copy, synchronous, atMost: .infinity)
        return ResultRow("save (synchronous=\(synchronous.rawValue)) keeping no history (vs the bare UPDATE)",
                         formstore: row.formstore, baseline: row.baseline, unit: row.unit, goal: "–", met: nil,
                         note: "the history tables dropped on a copy: the session's save less the history's rows")
    }

    // MARK: Keystroke

    /// `session.set(key, input:)` on a text field with three rules checked as
    /// typed, against assigning the struct's property.
    func keystroke(_ path: String) throws -> ResultRow {
        let session = try FormSession.open(Person.form, key: RecordKey("id", 3), backend: try openStore(path))
        let model = try ModelCoder.decode(Person.self, from: session.current)
        return try keystrokes(into: session, field: "firstName", besides: model, name: "keystroke", limit: 1)
    }

    /// Typing a name into `field`, one more letter each keystroke, then
    /// starting again, against assigning `model`'s property the same way.
    func keystrokes(into session: FormSession, field: String, besides model: Person, name: String,
                    limit: Double) throws -> ResultRow {
        var model = model
        let typed = (1...20).map { String("Augusta Ada King Lovelace".prefix($0)) }
        let perRound = size.pick(smoke: 1, quick: 2000, full: 10000)
        var i = 0
        let paired = try interleaved(rounds: size.pick(smoke: 1, quick: 21, full: 41), baseline: {
            seconds {
                for _ in 0..<perRound {
                    i = (i + 1) % typed.count
                    model.firstName = typed[i]
                    blackHole(model)
                }
            } / Double(perRound)
        }, subject: {
            try seconds {
                for _ in 0..<perRound {
                    i = (i + 1) % typed.count
                    try session.set(field, input: typed[i])
                }
            } / Double(perRound)
        })
        guard typed.contains(session.value(field).textValue ?? "") else { throw BenchError("keystrokes were not kept") }
        let limitText = limit == limit.rounded() ? String(Int(limit)) : String(limit)
        return ResultRow(name, formstore: paired.subject * 1e6, baseline: paired.baseline * 1e6, unit: "µs",
                         goal: "≤ \(limitText) µs median", met: paired.subject * 1e6 <= limit)
    }
}
