import CSQLite
import FormCore
import FormStorage
import Foundation

/// Live records: what history adds to a save, what an open session watching
/// for other writers costs while nothing happens, and how soon another
/// connection's commit reaches it.
struct LiveCases {
    let directory: Scratch
    let size: RunSize

    /// A save that records its history against the same save on a copy of
    /// the database without the history tables, at synchronous=FULL.
    func historyOverhead(_ path: String) throws -> [ResultRow] {
        let withHistory = directory.file("history.sqlite")
        let withoutHistory = directory.file("no-history.sqlite")
        for copy in [withHistory, withoutHistory] {
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
        }
        let recording = try openStore(withHistory, synchronous: .full)
        let plain = try openStore(withoutHistory, synchronous: .full)
        try plain.database.write { conn in
            try conn.execute("DROP TABLE formstore_change_fields")
            try conn.execute("DROP TABLE formstore_changes")
        }
        let recorded = try FormSession.open(Person.form, key: RecordKey("id", 4), backend: recording)
        let unrecorded = try FormSession.open(Person.form, key: RecordKey("id", 4), backend: plain)
        var counter = 0
        func save(_ session: FormSession) throws -> Double {
            try seconds {
                counter += 1
                try session.set("city", input: "Lyon \(counter)")
                guard case .saved = try session.save() else { throw BenchError("save did not save") }
            }
        }
        // Single saves alternated many times: an fsync's time swings from one to the next.
        let paired = try interleaved(rounds: size.pick(smoke: 1, quick: 301, full: 1001),
                                     baseline: { try save(unrecorded) }, subject: { try save(recorded) })
        guard try recorded.history().count >= 1 else { throw BenchError("no history was recorded") }
        return [.ratio("save with history (synchronous=FULL)", paired, unit: "µs", scale: 1e6, atMost: 1.10),
                try historyFloor(withHistory, withoutHistory)]
    }

    /// What history costs whatever writes it: the same one-field update in C
    /// with the history's change and field rows against it alone, each in its
    /// own transaction at synchronous=FULL, on the two copies `historyOverhead` saves to.
    private func historyFloor(_ withHistory: String, _ withoutHistory: String) throws -> ResultRow {
        let recording = try RawConnection(path: withHistory, synchronous: "FULL")
        let plain = try RawConnection(path: withoutHistory, synchronous: "FULL")
        let update = "UPDATE \(Person.table) SET city = ? WHERE id = 3"
        let recordingUpdate = try recording.prepare(update), plainUpdate = try plain.prepare(update)
        let history = try RawHistoryRows(recording)
        var counter = 0
        func write(_ connection: RawConnection, _ update: RawStatement, recorded: Bool) throws -> Double {
            counter += 1
            let city = "Lyon \(counter)"
            return try seconds {
                try connection.execute("BEGIN IMMEDIATE")
                sqlite3_bind_text(update.pointer, 1, city, -1, formstore_sqlite3_transient())
                try update.run()
                if recorded {
                    try history.write(form: Person.table, key: "{\"id\":3}", field: "city", old: "Lyon", new: city)
                }
                try connection.execute("COMMIT")
            }
        }
        let paired = try interleaved(rounds: size.pick(smoke: 1, quick: 301, full: 1001),
                                     baseline: { try write(plain, plainUpdate, recorded: false) },
                                     subject: { try write(recording, recordingUpdate, recorded: true) })
        return .ratio("the floor: history in C (synchronous=FULL)", paired, unit: "µs", scale: 1e6, atMost: 1.10,
                      note: "the same update with and without the history's two rows, each its own transaction, through the C API")
    }

    /// CPU time of this process while one session watches for other writers
    /// and nothing is written, as a share of one core.
    func idleSession(_ path: String) throws -> ResultRow {
        try idleSession(try openStore(path), name: "idle session watching for other writers")
    }

    /// The same over any backend that hears other writers (PostgreSQL: its listening connection).
    func idleSession(_ backend: any FormBackend, name: String) throws -> ResultRow {
        let session = try FormSession.open(Person.form, key: RecordKey("id", 5), backend: backend)
        try session.watchExternalChanges()
        let idle = size.pick(smoke: 0.2, quick: 3.0, full: 10.0)
        let cpuBefore = processCPUSeconds()
        let started = monotonicNanoseconds()
        Thread.sleep(forTimeInterval: idle)
        let share = (processCPUSeconds() - cpuBefore) / (Double(monotonicNanoseconds() - started) / 1e9) * 100
        guard try session.takeExternalChanges() == nil else { throw BenchError("a change was heard while idle") }
        return ResultRow(name, formstore: share, baseline: nil, unit: "% of a core", goal: "≤ 0.1%", met: share <= 0.1)
    }

    /// From another connection's COMMIT returning to the session hearing it
    /// (inotify wake-up, data_version): the median and the slowest.
    func commitHeard(_ path: String) throws -> [ResultRow] {
        let other = try RawConnection(path: path)
        return try commitHeard(try openStore(path), name: "another connection's commit heard") { try other.execute($0) }
    }

    /// The same over any backend, `write` running SQL on another connection.
    func commitHeard(_ backend: any FormBackend, name: String, write: (String) throws -> Void) throws -> [ResultRow] {
        let session = try FormSession.open(Person.form, key: RecordKey("id", 6), backend: backend)
        let signal = try session.watchExternalChanges()
        var latencies: [Double] = []
        for number in 1...size.pick(smoke: 2, quick: 50, full: 100) {
            try write("UPDATE \(Person.table) SET city = 'Nice \(number)' WHERE id = 6")
            let committed = monotonicNanoseconds()
            guard signal.wait(timeout: .seconds(5)) else { throw BenchError("write \(number) was not heard") }
            latencies.append(Double(monotonicNanoseconds() - committed) / 1e6)
            guard try session.takeExternalChanges()?.changed == ["city"] else { throw BenchError("write \(number) not taken") }
        }
        let slowest = latencies.max() ?? 0
        return [
            ResultRow("\(name): median", formstore: median(latencies), baseline: nil, unit: "ms",
                      goal: "≤ 100 ms", met: median(latencies) <= 100),
            ResultRow("\(name): slowest", formstore: slowest, baseline: nil, unit: "ms",
                      goal: "≤ 100 ms", met: slowest <= 100),
        ]
    }

    private func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
