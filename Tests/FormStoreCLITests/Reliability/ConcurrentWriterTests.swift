import FormStoreTestSupport
import Foundation
import Synchronization
import Testing

/// Four processes edit the same 50 records at once, two through `formstore set`
/// and two through the library (`formstore-stress write`): every save is
/// applied or reported as a conflict (exit 75), none is lost or silently
/// overwritten, and no raw SQLITE_BUSY reaches anyone. Runs
/// `FORMSTORE_STRESS_SECONDS` seconds (5 by default).
@Suite struct ConcurrentWriterTests {
    static let seconds = StressHelper.count("FORMSTORE_STRESS_SECONDS", default: 5)
    static let records = 50

    /// A save someone was told succeeded: the record, the value it was based on, the value written.
    struct Acknowledged: Hashable {
        var record: Int
        var base: String
        var token: String
    }

    @Test func everySaveIsAppliedOrReportedAndNoneIsLost() throws {
        let scratch = try TemporaryDirectory()
        let database = scratch.path + "/writers.sqlite"
        // The trigger records what each update replaced: a save based on a value
        // that was no longer stored would show as an audit row whose `old` differs.
        // In WAL mode from the start, as any database FormStore has written is: switching
        // needs a moment alone with the file, which four writers starting at once do not give.
        try sqlite3(database, input: "PRAGMA journal_mode = WAL;\n" + StressHelper.itemsSchema(records: Self.records) + """
            CREATE TABLE audit (seq INTEGER PRIMARY KEY, item INTEGER NOT NULL, old TEXT NOT NULL, new TEXT NOT NULL);
            CREATE TRIGGER items_audit AFTER UPDATE OF a ON items
            BEGIN INSERT INTO audit (item, old, new) VALUES (old.id, old.a, new.a); END;
            """)
        let seconds = String(Self.seconds)
        // One library writer waits the default 5 s for the lock, one only 10 ms (to meet busy).
        let library = try [("L1", "5000"), ("L2", "10")].map { name, busy in
            try StressHelper.start(["write", "--db", database, "--log", scratch.path + "/\(name).log", "--writer", name,
                                    "--seconds", seconds, "--records", String(Self.records), "--busy-ms", busy],
                                   errors: scratch.path + "/\(name).err")
        }
        let commands = CommandWriters()
        let deadline = Date().addingTimeInterval(Double(Self.seconds))
        let group = DispatchGroup()
        for (name, busy) in [("S1", "5000"), ("S2", "10")] {
            DispatchQueue.global().async(group: group) {
                commands.run(name, database: database, records: Self.records, busyTimeout: busy, until: deadline)
            }
        }
        group.wait()
        var acknowledged = commands.acknowledged.withLock { $0 }
        for (process, name) in zip(library, ["L1", "L2"]) {
            process.waitUntilExit()
            let errors = (try? String(contentsOfFile: scratch.path + "/\(name).err", encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "\(name): \(errors)")
            for words in StressHelper.log(scratch.path + "/\(name).log") {
                switch words.first {
                case "ok": acknowledged.append(Acknowledged(record: Int(words[1])!, base: words[2], token: words[3]))
                case "conflict", "busy": commands.retried.add(1, ordering: .relaxed)
                default: Issue.record("\(name): unexpected log line \(words)")
                }
            }
        }
        for failure in commands.failures.withLock({ $0 }) { Issue.record(Comment(rawValue: failure)) }

        // Every acknowledged save was applied over exactly the value its writer read,
        // and nothing else was written: no update lost, none silently overwritten.
        let audit = try sqlite3(database, ["SELECT item, old, new FROM audit ORDER BY seq"])
            .split(separator: "\n").map { line -> Acknowledged in
                let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                return Acknowledged(record: Int(parts[0])!, base: parts[1], token: parts[2])
            }
        #expect(Set(audit) == Set(acknowledged))
        #expect(audit.count == acknowledged.count)
        // The final state is the last acknowledged save of each record, never torn.
        var expected = [Int: String]()
        for entry in audit { expected[entry.record] = entry.token }
        for line in try sqlite3(database, ["SELECT id, a, b, c FROM items"]).split(separator: "\n") {
            let parts = line.split(separator: "|").map(String.init)
            #expect(parts[1] == parts[2] && parts[2] == parts[3], "torn row \(line)")
            #expect(parts[1] == expected[Int(parts[0])!] ?? "t0", "record \(parts[0])")
        }
        // The counts, for the CI log.
        print("concurrent writers: \(acknowledged.count) saves acknowledged (\(commands.acknowledged.withLock(\.count)) "
              + "by formstore set), \(commands.retried.load(ordering: .relaxed)) conflicts or busy reported in \(Self.seconds) s")
        #expect(acknowledged.count > 20)
        #expect(try sqlite3(database, ["PRAGMA integrity_check"]) == "ok\n")
    }
}

/// `formstore set` run in a loop by test threads, as a script would.
private final class CommandWriters: Sendable {
    let acknowledged = Mutex<[ConcurrentWriterTests.Acknowledged]>([])
    let failures = Mutex<[String]>([])
    /// Saves reported as a conflict or a busy database (exit 75).
    let retried = Atomic<Int>(0)

    func run(_ name: String, database: String, records: Int, busyTimeout: String, until deadline: Date) {
        var step = 0
        while Date() < deadline {
            step += 1
            let record = Int.random(in: 1...records)
            let token = "\(name).\(step)"
            let arguments = ["--db", database, "set", "items", String(record),
                             "a=\(token)", "b=\(token)", "c=\(token)", "n=\(step)", "--format", "json"]
            do {
                let run = try runBinary(arguments, environment: ["FORMSTORE_BUSY_TIMEOUT_MS": busyTimeout])
                check(run, record: record, token: token)
            } catch {
                failures.withLock { $0.append("\(name): \(error)") }
            }
        }
    }

    private func check(_ run: BinaryRun, record: Int, token: String) {
        let lines = run.errors.split(separator: "\n")
        let saysBusy = run.errors.contains("SQLITE_BUSY") || run.errors.contains("database is locked")
        switch run.code {
        case 0:
            // `set --format json` prints each change with the value it replaced.
            let changes = (try? JSONSerialization.jsonObject(with: Data(run.output.utf8))) as? [[String: Any]]
            guard let base = changes?.first(where: { $0["field"] as? String == "a" })?["old"] as? String else {
                failures.withLock { $0.append("set \(record): no change of a in \(run)") }
                return
            }
            acknowledged.withLock { $0.append(.init(record: record, base: base, token: token)) }
        case 75 where lines.first?.hasPrefix("formstore: ") == true && run.errors.contains("try again")
                      && !run.errors.contains("SQLITE_BUSY"):
            retried.add(1, ordering: .relaxed)
        default:
            failures.withLock { $0.append("set \(record)\(saysBusy ? " (busy not reported as 75)" : ""): \(run)") }
        }
    }
}
