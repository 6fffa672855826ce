import FormCore
import FormStoreTestSupport
import Foundation
import Synchronization
import Testing
@testable import FormStorage

/// A commit by another process reaches an open session without any timer
/// reading the row: untouched fields take the new values, a dirty field
/// changed underneath is flagged before any save.
@Suite struct ExternalChangeTests {
    let database: AccountsDatabase
    var path: String { database.path }
    var form: Form { database.form }

    init() throws {
        database = try AccountsDatabase("""
            PRAGMA journal_mode = WAL;
            CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT NOT NULL, plan TEXT, seats INTEGER);
            INSERT INTO accounts VALUES (1, 'ann@example.com', 'free', 1);
            """)
    }

    func store() throws -> FormStore { try database.store() }

    @Test func everyWriteOfAnotherProcessReachesTheSessionAndNoTimerReadsTheRow() throws {
        let store = try store()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        let signal = try session.watchExternalChanges()
        let rowReads = Atomic<Int>(0)
        store.database.traceStatements { sql in
            if sql.hasPrefix("SELECT") && sql.contains("accounts") { rowReads.add(1, ordering: .relaxed) }
        }
        var events: [SessionEvent] = []
        let observation = session.observe { events.append($0) }
        let shell = try SQLiteShell()
        for write in 1...100 {
            try shell.run(database: path, script: "UPDATE accounts SET seats = \(100 + write) WHERE id = 1;")
            #expect(signal.wait(timeout: .seconds(5)), "write \(write) was not heard")
            let change = try session.takeExternalChanges()
            #expect(change?.changed == ["seats"])
            #expect(session.value("seats") == .int(Int64(100 + write)))
        }
        #expect(events.filter { if case .changedExternally = $0 { true } else { false } }.count == 100)
        #expect(rowReads.load(ordering: .relaxed) == 100)
        // Idle: nothing is heard and nothing reads the row.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try session.takeExternalChanges() == nil)
        #expect(rowReads.load(ordering: .relaxed) == 100)
        // The session's own save is not someone else's commit.
        try session.set("plan", input: "team")
        #expect(try session.save().isSuccess)
        #expect(!signal.wait(timeout: .milliseconds(300)))
        observation.cancel()
        session.stopWatchingExternalChanges()
        #expect(!store.isWatchingCommits)
    }

    @Test func aDirtyFieldChangedUnderneathIsFlaggedBeforeTheSave() throws {
        let store = try store()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        let signal = try session.watchExternalChanges()
        try session.set("plan", input: "team")
        try SQLiteShell().run(database: path, script: "UPDATE accounts SET plan = 'pro', seats = 9 WHERE id = 1;")
        #expect(signal.wait(timeout: .seconds(5)))
        let change = try #require(try session.takeExternalChanges())
        #expect(change.changed == ["seats"])
        #expect(change.conflicts == [FieldConflict(field: "plan", base: "free", mine: "team", theirs: "pro")])
        #expect(session.externalConflicts == change.conflicts)
        #expect(session.value("seats") == 9)
        #expect(session.value("plan") == "team")
        guard case .conflict = try session.save() else {
            Issue.record("the save overwrote a change made underneath")
            return
        }
        // Keeping mine is a decision: the next save writes it.
        session.resolveExternalConflict("plan", keepMine: true)
        #expect(session.externalConflicts.isEmpty)
        #expect(try session.save().isSuccess)
        #expect(try SQLiteShell().output(database: path, "SELECT plan, seats FROM accounts") == "team|9\n")
    }

    @Test func aReloadSettlesAFlaggedField() throws {
        let store = try store()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        let signal = try session.watchExternalChanges()
        try session.set("plan", input: "team")
        try SQLiteShell().run(database: path, script: "UPDATE accounts SET plan = 'pro' WHERE id = 1;")
        #expect(signal.wait(timeout: .seconds(5)))
        #expect(try session.takeExternalChanges()?.conflicts.map(\.field) == ["plan"])
        // The person saw theirs and keeps editing on top of it.
        try session.reload()
        #expect(session.externalConflicts.isEmpty)
        #expect(try session.save().isSuccess)
        #expect(try SQLiteShell().output(database: path, "SELECT plan FROM accounts") == "team\n")
    }

    @Test func aServiceTakesCommitsFromTheSignalsStream() async throws {
        let store = try store()
        let session = try await FormSession.open(form, key: RecordKey("id", 1), backend: store)
        let signal = try session.watchExternalChanges()
        try SQLiteShell().run(database: path, script: "UPDATE accounts SET plan = 'team' WHERE id = 1;")
        var heard: ExternalChange?
        for await _ in signal.commits {
            heard = try await session.takeExternalChanges()
            break
        }
        #expect(heard?.changed == ["plan"])
        #expect(session.value("plan") == "team")
    }
}
