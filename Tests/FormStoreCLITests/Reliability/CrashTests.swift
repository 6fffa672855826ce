import FormStoreTestSupport
import Foundation
import Testing
import FormCore
import FormStorage

/// A child saving and typing is killed with SIGKILL at random moments; after
/// each kill the database is whole, every record holds a state that was
/// committed, every acknowledged save is there, and the draft holds at least
/// what was last flushed; and every save has its history and no history its
/// missing save (written in one transaction). `FORMSTORE_STRESS_KILLS` sets the number of kills.
@Suite struct CrashTests {
    static let kills = StressHelper.count("FORMSTORE_STRESS_KILLS", default: 200)
    static let records = 20

    @Test func nothingAcknowledgedIsLostOrTornWhenKilled() throws {
        let scratch = try TemporaryDirectory()
        let database = scratch.path + "/crash.sqlite"
        // Records 1...20 take saves; record 21 is typed into and never saved (its draft).
        try sqlite3(database, input: StressHelper.itemsSchema(records: Self.records + 1))
        var history = CommittedHistory()
        for run in 1...Self.kills {
            let log = scratch.path + "/log-\(run)"
            let child = try StressHelper.start(
                ["crash", "--db", database, "--log", log, "--run", String(run), "--records", String(Self.records)],
                errors: scratch.path + "/stderr")
            // Half the kills come at any moment from the start (opening, migrating), half once
            // the child is at work (its first line logged), so a slow machine still tests saves.
            if run.isMultiple(of: 2) { Self.waitForFirstLine(of: log, child: child) }
            usleep(UInt32.random(in: 2_000...40_000))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            let errors = (try? String(contentsOfFile: scratch.path + "/stderr", encoding: .utf8)) ?? ""
            try #require(child.terminationReason == .uncaughtSignal, "run \(run) ended by itself: \(errors)")
            history.read(StressHelper.log(log))
            try history.check(database, run: run)
        }
        // The counts, for the CI log.
        print("crash test: \(Self.kills) kills, \(history.acknowledgedSaves) acknowledged saves and "
              + "\(history.flushes) draft flushes checked")
        // The runs did real work: every other one was killed only after an
        // acknowledged step, however slowly a loaded machine starts the child.
        #expect(history.acknowledgedSaves + history.flushes >= Self.kills / 2)
        #expect(history.acknowledgedSaves > 0 && history.flushes > 0)
    }

    /// Waits (at most 10 s) until the child logged an acknowledged step.
    static func waitForFirstLine(of log: String, child: Process) {
        let deadline = Date().addingTimeInterval(10)
        while child.isRunning && Date() < deadline {
            if let size = try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int, size > 0 { return }
            usleep(500)
        }
    }
}

/// What the children acknowledged, and the checks after each kill.
private struct CommittedHistory {
    /// The latest acknowledged token (n) of each saved record.
    var saved: [Int64: Int64] = [:]
    /// Records inserted, with their token.
    var inserted: [Int64: Int64] = [:]
    /// The latest flushed draft of this run: its id and token.
    var flushed: (id: String, n: Int64)?
    var acknowledgedSaves = 0
    var flushes = 0

    mutating func read(_ lines: [[String]]) {
        flushed = nil
        for words in lines where words.count == 3 {
            switch words[0] {
            case "S":
                saved[Int64(words[1])!] = Int64(words[2])!
                acknowledgedSaves += 1
            case "I":
                inserted[Int64(words[1])!] = Int64(words[2])!
                acknowledgedSaves += 1
            case "D":
                flushed = (words[1], Int64(words[2])!)
                flushes += 1
            default:
                Issue.record("unexpected log line \(words)")
            }
        }
    }

    func check(_ path: String, run: Int) throws {
        let conn = try Connection(path: path)
        #expect(try conn.fetchValue(String.self, "PRAGMA integrity_check") == "ok", "run \(run)")
        var stored: [Int64: Int64] = [:]
        for row in try conn.fetchAll("SELECT id, a, b, c, n FROM items") {
            let id = try row.value(at: 0, as: Int64.self)
            let a = try row.value(at: 1, as: String.self), b = try row.value(at: 2, as: String.self)
            let c = try row.value(at: 3, as: String.self), n = try row.value(at: 4, as: Int64.self)
            // One committed save wrote all four columns: anything else is a torn row.
            #expect(a == b && b == c && a == "t\(n)", "run \(run): record \(id) is torn: \(a) \(b) \(c) \(n)")
            stored[id] = n
        }
        for (id, n) in saved {
            #expect((stored[id] ?? -1) >= n, "run \(run): record \(id) lost acknowledged save \(n)")
        }
        // Each record's last recorded change of n wrote the n it holds: a save
        // without its history, or history without its save, would differ.
        // (A child killed before its migrations made the history tables had saved nothing.)
        let hasHistory = try conn.fetchOne("SELECT 1 FROM sqlite_schema WHERE name = 'formstore_change_fields'") != nil
        var recorded: [Int64: Int64] = [:]
        for row in try hasHistory ? conn.fetchAll("""
            SELECT c.record_key, f.new_value FROM formstore_changes c
            JOIN formstore_change_fields f ON f.change_id = c.id WHERE f.field = 'n' ORDER BY c.id
            """) : [] {
            let key = try JSONDecoder().decode(RecordKey.self, from: Data(try row.value(at: 0, as: String.self).utf8))
            recorded[try #require(key.values.first?.intValue)] = try row.value(at: 1, as: Int64.self)
        }
        for (id, n) in stored {
            #expect(recorded[id] == (n == 0 ? nil : n), "run \(run): record \(id) holds \(n), its history says \(String(describing: recorded[id]))")
        }
        for (id, n) in inserted {
            #expect(stored[id] == n, "run \(run): inserted record \(id) (\(n)) is missing or changed")
        }
        if let flushed {
            let payload = try conn.fetchValue(String.self, "SELECT payload FROM formstore_drafts WHERE id = ?", [flushed.id])
            let draft = try Draft(encoded: Data(try #require(payload, "run \(run): draft \(flushed.id) lost").utf8))
            // The autosaver may have written a moment between two fields being set (a, b, c, n in
            // that order): a session state, so each field is as new as the next, and every one at
            // least as new as the last flush.
            let numbers = ["a", "b", "c"].map { draft.values[$0]?.textValue.flatMap { Int64($0.dropFirst()) } ?? -1 }
                + [draft.values["n"]?.intValue ?? -1]
            #expect(numbers == numbers.sorted(by: >), "run \(run): the draft is no session state: \(draft.values)")
            #expect(numbers.allSatisfy { $0 >= flushed.n }, "run \(run): draft holds \(numbers), flushed \(flushed.n)")
        }
    }
}
