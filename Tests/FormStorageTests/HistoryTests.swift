import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// Every save through FormStore records its changed fields' stored values,
/// who and through what, where drafts live.
@Suite struct HistoryTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        // An application's database, made the way the application makes it.
        (directory, path) = try TemporaryDirectory.withDatabase("""
            CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT NOT NULL, plan TEXT, seats INTEGER, pin TEXT);
            INSERT INTO accounts VALUES (1, 'ann@example.com', 'free', 1, '1234');
            """)
    }

    func store() throws -> FormStore {
        try FormStore(path: path, sidecarDirectory: directory.url.appendingPathComponent("state"))
    }

    var form: Form {
        var email = Field(key: "email", label: "Email", kind: .email)
        email.isRequired = true
        var pin = Field(key: "pin", label: "PIN", kind: .text)
        pin.isSecure = true
        var form = Form(name: "account", sections: [Section(fields: [
            email, Field(key: "plan", label: "Plan", kind: .text), Field(key: "seats", label: "Seats", kind: .integer), pin,
        ])])
        form.table = "accounts"
        return form
    }

    /// Another process taking the database over (`formstore init`) while a
    /// store has its sidecar open (a server): the store's next save is in the
    /// database's history, where everyone reads it. It went on into the
    /// emptied sidecar, which nobody read again.
    @Test func aSaveAfterAnotherProcessInitializesIsInTheDatabasesHistory() throws {
        let serving = try store()
        try serving.prepareOwnTables()
        let first = try FormSession.open(form, key: RecordKey("id", 1), backend: serving)
        try first.set("plan", input: "team")
        #expect(try first.save().isSuccess)
        #expect(serving.sidecar != nil)
        try store().initialize()
        let second = try FormSession.open(form, key: RecordKey("id", 1), backend: serving)
        try second.set("seats", input: "3")
        #expect(try second.save().isSuccess)
        #expect(serving.sidecar == nil)
        let fields = try store().history(form, key: RecordKey("id", 1)).map { $0.fields.map(\.field) }
        #expect(fields == [["plan"], ["seats"]], "\(fields)")
    }

    /// The same with no sidecar made yet (no draft kept before the init):
    /// the save is in the database's history, where it was in none.
    @Test func aSaveAfterAnotherProcessInitializesBeforeAnySidecarIsInTheDatabasesHistory() throws {
        let serving = try store()
        try store().initialize()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: serving)
        try session.set("seats", input: "3")
        #expect(try session.save().isSuccess)
        #expect(serving.sidecar == nil)
        #expect(try store().history(form, key: RecordKey("id", 1)).map { $0.fields.map(\.field) } == [["seats"]])
    }

    @Test func aSaveRecordsEachChangedFieldWhoAndThroughWhat() throws {
        let store = try store()
        // The sidecar a first draft would create.
        try store.prepareOwnTables()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        session.attribution = ChangeAttribution(actor: "ann", via: .web)
        try session.set("plan", input: "team")
        try session.set("seats", input: "5")
        try session.set("pin", input: "9999")
        #expect(try session.save().isSuccess)

        let history = try session.history()
        #expect(history.count == 1)
        let change = try #require(history.first)
        #expect(change.attribution == ChangeAttribution(actor: "ann", via: .web))
        #expect(change.fields == [
            FieldChange(field: "plan", old: "free", new: "team"),
            FieldChange(field: "seats", old: 1, new: 5),
            FieldChange(field: "pin", old: nil, new: nil, isSecure: true),
        ])
        // The user's file is left alone: history lives in the sidecar, and no value of the secure field reached it.
        let sidecar = try #require(store.sidecar)
        let kept = try SQLiteShell().output(database: sidecar.path,
                                            "SELECT field, typeof(new_value), quote(new_value) FROM formstore_change_fields ORDER BY field")
        #expect(kept == "pin|null|NULL\nplan|text|'team'\nseats|integer|5\n")
        #expect(try store.history(form, key: RecordKey("id", 1), field: "seats").map { $0.fields.map(\.field) } == [["seats"]])
    }

    @Test func afterInitHistoryLivesInTheDatabaseAndRetentionPrunes() throws {
        let store = try store()
        try store.initialize()
        store.historyRetention = .latest(2)
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        for seats in 2...5 {
            try session.set("seats", value: .int(Int64(seats)))
            #expect(try session.save().isSuccess)
        }
        #expect(try session.history().map { $0.fields[0].new } == [4, 5])
        #expect(try SQLiteShell().output(database: path, "SELECT count(*) FROM formstore_change_fields") == "2\n")
        let fresh = FormSession.new(form, backend: store)
        try fresh.set("email", input: "bo@example.com")
        #expect(try fresh.save().isSuccess)
        #expect(try fresh.history().first?.fields.map(\.field) == ["email"])
    }

    @Test func aRefusedSaveRecordsNothing() throws {
        let store = try store()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try SQLiteShell().run(database: path, script: "UPDATE accounts SET plan = 'pro' WHERE id = 1;")
        try session.set("plan", input: "team")
        guard case .conflict = try session.save() else {
            Issue.record("the save overwrote another writer's change")
            return
        }
        #expect(try session.history().isEmpty)
    }

    /// A store with the history's tables, and a session on account 1 that
    /// saved 2 seats, recorded as one save.
    func sessionThatSavedSeats() throws -> (FormStore, FormSession) {
        let store = try FormStore(path: path)
        try store.initialize()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try session.set("seats", value: 2)
        #expect(try session.save().isSuccess)
        #expect(try session.history().map { $0.fields[0].new } == [2])
        return (store, session)
    }

    /// Whether the history's tables exist is remembered per connection, found
    /// or not, until the schema changes: tables another process drops or
    /// makes while a session is open are seen by its next save.
    @Test func aSaveSeesHistoryTablesDroppedOrMadeByAnotherProcess() throws {
        let (_, session) = try sessionThatSavedSeats()

        try SQLiteShell().run(database: path, script: "DROP TABLE formstore_change_fields; DROP TABLE formstore_changes;")
        for seats in 3...4 {
            try session.set("seats", value: .int(Int64(seats)))
            #expect(try session.save().isSuccess)
        }
        #expect(try SQLiteShell().output(database: path, "SELECT seats FROM accounts WHERE id = 1") == "4\n")
        #expect(try session.history().isEmpty)

        try SQLiteShell().run(database: path, script: "DELETE FROM formstore_migrations WHERE id >= 5;")
        try FormStore(path: path).initialize()
        try session.set("seats", value: 5)
        #expect(try session.save().isSuccess)
        #expect(try session.history().map { $0.fields[0].new } == [5])
    }

    /// A save reads `main`'s schema version once (`Connection.holdingMainSchemaVersion`),
    /// and only for its own statements: the next save sees tables dropped and
    /// a trigger made through the store's own writer between the two.
    @Test func aSaveSeesTheSchemaChangedThroughTheStoresOwnConnection() throws {
        let (store, session) = try sessionThatSavedSeats()

        try store.database.write { conn in
            try conn.executeScript("DROP TABLE formstore_change_fields; DROP TABLE formstore_changes;")
        }
        try session.set("seats", value: 3)
        #expect(try session.save().isSuccess)
        #expect(try session.history().isEmpty)

        // A trigger the save must now read back the row for.
        try store.database.write { conn in
            try conn.executeScript("CREATE TRIGGER doubled AFTER UPDATE OF seats ON accounts "
                                   + "BEGIN UPDATE accounts SET seats = NEW.seats * 2 WHERE id = NEW.id AND NEW.seats < 100; END;")
        }
        try session.set("seats", value: 4)
        #expect(try session.save().isSuccess)
        #expect(session.value("seats") == 8)
        #expect(try SQLiteShell().output(database: path, "SELECT seats FROM accounts WHERE id = 1") == "8\n")
    }
}
