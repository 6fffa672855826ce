import FormStoreTestSupport
import Foundation
@testable import FormStorage
import Synchronization
import Testing

/// The writer's WAL is checkpointed on a thread of its own (`WALCheckpointer`):
/// what the person sees is that their rows reach the database file, that
/// nothing is left behind when the database closes, and that commits go on
/// while a reader holds the WAL.
@Suite struct WALCheckpointTests {
    let directory: TemporaryDirectory
    var path: String { directory.path("db.sqlite") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Each commit adds about two pages: 700 of them pass the 1000-page mark.
    private func fill(_ db: Database, commits: Int = 700) throws {
        try db.write { try $0.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, body BLOB)") }
        for n in 0..<commits {
            try db.write { try $0.execute("INSERT INTO t(body) VALUES (zeroblob(3000 + ?))", [n]) }
        }
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func rowsReachTheDatabaseFileWhileItStaysOpen() throws {
        let db = try Database(path: path)
        try fill(db)
        // Every row is in the WAL at first; the checkpoint copies them into the file.
        let deadline = Date().addingTimeInterval(20)
        while fileSize(path) < 1_000_000 && Date() < deadline { usleep(10_000) }
        #expect(fileSize(path) >= 1_000_000)
        #expect(try db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM t") } == 700)
    }

    @Test func closingLeavesNoWALAndEveryRowInTheFile() throws {
        do {
            let db = try Database(path: path)
            try fill(db)
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        var readOnly = Configuration()
        readOnly.readOnly = true
        let reader = try Connection(path: path, configuration: readOnly)
        #expect(try reader.fetchValue(Int.self, "SELECT count(*) FROM t") == 700)
        #expect(try reader.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
    }

    /// A reader is read-only and cannot remove the WAL: the writer must be the last to close.
    @Test func closingAfterReadsLeavesNoWAL() throws {
        do {
            let db = try Database(path: path)
            try fill(db, commits: 20)
            #expect(try db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM t") } == 20)
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(fileSize(path) > 20 * 3000)
    }

    @Test func commitsGoOnWhileAReaderHoldsTheWAL() throws {
        let db = try Database(path: path)
        try fill(db, commits: 10)
        // Another connection's open read keeps the checkpoint from finishing.
        let other = try Connection(path: path)
        try other.execute("BEGIN")
        #expect(try other.fetchValue(Int.self, "SELECT count(*) FROM t") == 10)
        try fill(db)
        #expect(try db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM t") } == 710)
        #expect(try other.fetchValue(Int.self, "SELECT count(*) FROM t") == 10)
        try other.execute("COMMIT")
        #expect(try other.fetchValue(Int.self, "SELECT count(*) FROM t") == 710)
    }

    @Test func anAttachedDatabaseIsCheckpointedInItsCommit() throws {
        let side = directory.path("side.sqlite")
        // A WAL file of its own, as a sidecar is.
        _ = try Connection(path: side, configuration: { var c = Configuration(); c.journalMode = .wal; return c }())
        let db = try Database(path: path)
        try db.attach(side, as: "side")
        try db.write { try $0.execute("CREATE TABLE side.t(id INTEGER PRIMARY KEY, body BLOB)") }
        for n in 0..<700 {
            try db.write { try $0.execute("INSERT INTO side.t(body) VALUES (zeroblob(3000 + ?))", [n]) }
        }
        // No waiting: the commit that passed 1000 pages copied them, as SQLite's own checkpoint does.
        #expect(fileSize(side) >= 1_000_000)
        #expect(try db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM side.t") } == 700)
    }

    /// When the second connection cannot be opened, the commits checkpoint
    /// again, as SQLite's own hook does, so the WAL does not grow without end.
    @Test func commitsCheckpointWhenTheSecondConnectionCannotOpen() throws {
        struct CannotOpen: Error {}
        var configuration = Configuration()
        configuration.journalMode = .wal
        let writer = try Connection(path: path, configuration: configuration)
        let checkpointer = WALCheckpointer { throw CannotOpen() }
        checkpointer.attach(to: writer)
        defer { checkpointer.detach(from: writer) }
        try writer.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, body BLOB)")
        let deadline = Date().addingTimeInterval(20)
        var n = 0
        // Committing on: once the failed open is noted, a commit past the mark copies the WAL.
        while fileSize(path) < 1_000_000 && Date() < deadline {
            try writer.execute("INSERT INTO t(body) VALUES (zeroblob(3000 + ?))", [n])
            n += 1
        }
        #expect(fileSize(path) >= 1_000_000)
    }

    /// A writer that never pauses: a pass runs once per 1000 pages of growth,
    /// not after every commit past the mark, and the WAL still starts over
    /// from its beginning, so its file does not grow without end.
    @Test func aWriterThatNeverPausesStillStartsTheWALOver() throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.synchronous = .normal
        let writer = try Connection(path: path, configuration: configuration)
        var again = configuration
        again.journalMode = .unchanged
        let checkpointer = WALCheckpointer { try Connection(path: path, configuration: again) }
        checkpointer.attach(to: writer)
        defer { checkpointer.detach(from: writer) }
        try writer.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, body BLOB)")
        let insert = try writer.cachedStatement("INSERT INTO t(body) VALUES (zeroblob(5000))")
        let deadline = Date().addingTimeInterval(60)
        var commits = 0
        while checkpointer.startsOver.load(ordering: .relaxed) < 3 && Date() < deadline {
            try insert.execute()
            commits += 1
        }
        #expect(checkpointer.startsOver.load(ordering: .relaxed) >= 3)
        // Each commit adds at most four pages (the leaf, two overflow pages, an interior page
        // now and then); the old rule ran a pass after nearly every commit.
        #expect(checkpointer.passes.load(ordering: .relaxed) <= commits * 4 / 1000 + 2,
                "\(checkpointer.passes.load(ordering: .relaxed)) passes for \(commits) commits")
        #expect(try writer.fetchValue(Int.self, "SELECT count(*) FROM t") == commits)
    }
}
