import FormCore
import FormStoragePostgres
import FormStoreTestSupport
import Foundation
import Synchronization
import Testing

/// A commit by another connection reaches an open session, the same on
/// SQLite (inotify and `PRAGMA data_version`) and PostgreSQL (`LISTEN` and
/// FormStore's `NOTIFY` trigger), with no timer reading the row.
@Suite struct LiveConformanceTests {
    @Test(arguments: BackendKind.allCases)
    func eachOfAHundredWritesReachesTheSessionAndNothingReadsTheRowWhileIdle(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        let signal = try session.watchExternalChanges()
        let other = try backend.otherConnection()
        let rowReads = Atomic<Int>(0)
        backend.traceStatements { sql in
            if sql.hasPrefix("SELECT") && sql.contains("people") { rowReads.add(1, ordering: .relaxed) }
        }
        var events = 0
        let observation = session.observe { if case .changedExternally = $0 { events += 1 } }
        for write in 1...100 {
            try other("UPDATE people SET name = 'Ann \(write)' WHERE id = 1")
            // Heard, not timed: the 100 ms window is the bench's to measure (`--only live`).
            #expect(signal.wait(timeout: .seconds(5)), "write \(write) was not heard")
            let change = try session.takeExternalChanges()
            #expect(change?.changed == ["name"])
            #expect(session.value("name") == .text("Ann \(write)"))
        }
        #expect(events == 100)
        #expect(rowReads.load(ordering: .relaxed) == 100)
        // Idle: nothing is heard and nothing reads the row.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try session.takeExternalChanges() == nil)
        #expect(rowReads.load(ordering: .relaxed) == 100)
        // The session's own save is not someone else's commit.
        try session.set("email", input: "ann@park.example")
        #expect(try session.save().isSuccess)
        #expect(!signal.wait(timeout: .milliseconds(300)))
        observation.cancel()
        session.stopWatchingExternalChanges()
        #expect(!backend.isWatchingCommits)
    }

    @Test(arguments: BackendKind.allCases)
    func aDirtyFieldChangedUnderneathIsFlaggedBeforeTheSave(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        let signal = try session.watchExternalChanges()
        try session.set("email", input: "mine@example.com")
        try backend.otherConnection()("UPDATE people SET email = 'theirs@example.com', name = 'Ann Park' WHERE id = 1")
        #expect(signal.wait(timeout: .seconds(5)))
        let change = try #require(try session.takeExternalChanges())
        #expect(change.changed == ["name"])
        #expect(change.conflicts == [FieldConflict(field: "email", base: "ann@example.com", mine: "mine@example.com",
                                                   theirs: "theirs@example.com")])
        #expect(session.value("name") == "Ann Park")
        guard case .conflict = try session.save() else {
            Issue.record("the save overwrote a change made underneath")
            return
        }
        session.resolveExternalConflict("email", keepMine: true)
        #expect(try session.save().isSuccess)
        #expect(try backend.row("SELECT name, email FROM people WHERE id = 1") == ["Ann Park", "mine@example.com"])
    }

    @Test(arguments: BackendKind.allCases)
    func aServiceTakesCommitsFromTheSignalsStream(_ kind: BackendKind) async throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try await FormSession.open(People.form(), key: People.ann, backend: backend.store)
        let signal = try session.watchExternalChanges()
        try backend.otherConnection()("UPDATE people SET subscribed = true WHERE id = 1")
        var heard: ExternalChange?
        for await _ in signal.commits {
            heard = try await session.takeExternalChanges()
            break
        }
        #expect(heard?.changed == ["subscribed"])
        #expect(session.value("subscribed") == true)
    }

    @Test(arguments: BackendKind.allCases)
    func aDeletedRecordIsReported(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        let signal = try session.watchExternalChanges()
        try backend.otherConnection()("DELETE FROM people WHERE id = 1")
        #expect(signal.wait(timeout: .seconds(5)))
        #expect(try session.takeExternalChanges()?.deleted == true)
    }
}

/// PostgreSQL's side of it: what FormStore's trigger sends.
@Suite struct PostgresNotifyTriggerTests {
    @Test func aWatchedTablesCommitNotifiesItsTableAndKey() throws {
        let backend = try TestBackend(.postgres, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        let signal = try session.watchExternalChanges()
        let listener = try PostgresConnection(url: backend.location)
        try listener.executeScript("LISTEN formstore")
        try backend.otherConnection()("UPDATE people SET email = NULL WHERE id = 1")
        #expect(signal.wait(timeout: .seconds(5)))
        var notifications: [PostgresNotification] = []
        var fds = [pollfd(fd: listener.socket, events: Int16(POLLIN), revents: 0)]
        while notifications.isEmpty, poll(&fds, 1, 5_000) > 0 {
            notifications += try listener.takeNotifications()
        }
        #expect(notifications.map(\.channel) == ["formstore"])
        let payload = try JSONSerialization.jsonObject(with: Data((notifications.first?.payload ?? "").utf8)) as? NSDictionary
        #expect(payload == ["table": "people", "key": ["id": 1]] as NSDictionary)
        // The trigger stays for the next watcher; a second watch installs nothing new.
        #expect(try backend.count("SELECT count(*) FROM pg_trigger WHERE tgname = 'formstore_notify'") == 1)
    }

    @Test func aListeningConnectionThatBrokeIsMadeAgainAndTheSessionReads() throws {
        let backend = try TestBackend(.postgres, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        let signal = try session.watchExternalChanges()
        let other = try backend.otherConnection()
        // The server ends the store's listening connection (a restart, a network cut).
        try other("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND query LIKE 'LISTEN%'
            """)
        // Connected again, it cannot know what it missed: the session is told to read.
        #expect(signal.wait(timeout: .seconds(10)))
        let reread = try session.takeExternalChanges()
        #expect(reread?.changed == [] && reread?.conflicts == [] && reread?.deleted == false)
        try other("UPDATE people SET name = 'Ann Park' WHERE id = 1")
        #expect(signal.wait(timeout: .seconds(5)))
        #expect(try session.takeExternalChanges()?.changed == ["name"])
    }

    /// A key too long for a notification's payload (8000 bytes) is left out
    /// of it: the server would otherwise refuse the write, anyone's.
    @Test func aRowWithAKeyTooLongToNotifyIsStillWritten() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE tk (k text PRIMARY KEY, v text); INSERT INTO tk VALUES ('a', '1');
            """))
        var form = Form(name: "tk", sections: [Section(fields: [Field(key: "v", label: "v")])])
        form.primaryKey = ["k"]
        let session = try FormSession.open(form, key: RecordKey("k", "a"), backend: backend.store)
        let signal = try session.watchExternalChanges()
        try backend.otherConnection()("INSERT INTO tk VALUES (repeat('x', 9000), 'long')")
        #expect(signal.wait(timeout: .seconds(5)))
        #expect(try backend.count("SELECT count(*) FROM tk") == 2)
    }
}

/// A PostgreSQL type the form reads as text, refused where the server would
/// store another value than the one given.
@Suite struct PostgresTextTypeTests {
    static let schema = Schema(sqlite: "", postgres: """
        CREATE TABLE pay (id integer PRIMARY KEY, amount money, b bytea); INSERT INTO pay VALUES (1, 10, NULL);
        """)

    @Test func moneyIsNeverStoredRounded() throws {
        let backend = try TestBackend(.postgres, schema: Self.schema)
        let form = try #require(try (backend.store as! PostgresFormStore).inferredForm(table: "pay"))
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: backend.store)
        try session.set("amount", input: "1.999")
        #expect(throws: PostgresStoreError.self) { _ = try session.save() }
        #expect(try backend.row("SELECT amount::numeric FROM pay")?.first == "10.00")
        try session.set("amount", input: "1,234.50")
        #expect(try session.save().isSuccess)
        #expect(try backend.row("SELECT amount::numeric FROM pay")?.first == "1234.50")
    }

    @Test func byteaTakesOnlyBytes() throws {
        let backend = try TestBackend(.postgres, schema: Self.schema)
        let form = try #require(try (backend.store as! PostgresFormStore).inferredForm(table: "pay"))
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: backend.store)
        try session.set("b", input: "abc")
        #expect(throws: PostgresStoreError.self) { _ = try session.save() }
        #expect(try backend.row("SELECT b IS NULL FROM pay")?.first == "t")
        try session.set("b", input: "cafe")
        #expect(try session.save().isSuccess)
        #expect(try backend.row("SELECT encode(b, 'hex') FROM pay")?.first == "cafe")
    }
}

/// A store that only reads (`PostgresPool(readOnly:)`, every command that
/// only reads, `serve --read-only`) writes nothing to the database: no
/// trigger for watching, and a write is refused by the server.
@Suite struct ReadOnlyPostgresTests {
    @Test func aStoreThatOnlyReadsInstallsNoTriggerAndWritesNothing() throws {
        let backend = try TestBackend(.postgres, schema: People.schema)
        let store = try PostgresFormStore(pool: try PostgresPool(url: backend.location, readOnly: true), applyingMigrations: false)
        let session = try FormSession.open(People.form(), key: People.ann, backend: store)
        _ = try session.watchExternalChanges()
        #expect(try backend.count("SELECT count(*) FROM pg_trigger WHERE tgname = 'formstore_notify'") == 0)
        try session.set("email", input: "new@example.com")
        #expect(throws: PostgresError.self) { try session.save() }
        #expect(try backend.count("SELECT count(*) FROM people WHERE email = 'new@example.com'") == 0)
    }

    /// A server that answers, with no such database: not found (66), as a missing file is.
    @Test func aMissingDatabaseIsNotFound() throws {
        let backend = try TestBackend(.postgres, schema: People.schema)
        let location = backend.location.replacing(/\/[a-z0-9_]+\?/, with: "/no_such_database?")
        let run = try runBinary(["--db", location, "list", "people"])
        #expect(run.code == 66, "\(run)")
        #expect(run.errors.hasPrefix("formstore: no PostgreSQL database: "), "\(run)")
        #expect(run.errors.contains(#"database "no_such_database" does not exist"#), "\(run)")
    }
}
