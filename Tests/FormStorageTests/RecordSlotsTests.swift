import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// Records travel by slot between the store and the session (issue 14):
/// what a person sees must be what the dictionaries gave before, whichever
/// way a value changed (typed, undone, cancelled, written by someone else).
@Suite struct RecordSlotsTests {
    let database: AccountsDatabase
    var path: String { database.path }
    var form: Form { database.form }

    init() throws {
        database = try AccountsDatabase("""
            CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT NOT NULL, plan TEXT, seats INTEGER,
                                   note TEXT);
            INSERT INTO accounts VALUES (1, 'ann@example.com', 'free', 1, 'kept');
            """)
    }

    func store() throws -> FormStore { try database.store() }

    @Test func aStoredRecordReadsAsTheSameValuesByKeyAsOneMadeFromADictionary() throws {
        let record = try #require(try store().load(form, key: RecordKey("id", 1)))
        let expected: [String: FieldValue] = ["id": .int(1), "email": .text("ann@example.com"), "plan": .text("free"),
                                              "seats": .int(1)]
        #expect(record.values == expected)
        #expect(record == StoredRecord(key: RecordKey("id", 1), values: expected))
        var changed = record
        changed.values["plan"] = .text("team")
        #expect(changed.values["plan"] == .text("team"))
        #expect(changed.values["id"] == .int(1))
        #expect(changed != record)
    }

    @Test func aSaveTakesAnotherWritersChangeAndLeavesNothingDirty() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: try store())
        try session.set("email", input: "ann@example.org")
        #expect(session.dirtyFields == ["email"])
        try SQLiteShell().run(database: path, script: "UPDATE accounts SET plan = 'team' WHERE id = 1;")
        #expect(try session.save() == .saved(changed: ["email"], key: RecordKey("id", 1)))
        #expect(session.value("plan") == .text("team"))
        #expect(session.pristine["plan"] == .text("team"))
        #expect(session.dirtyFields.isEmpty)
        #expect(!session.isDirty)
        // A field typed back to its saved value is clean again.
        try session.set("seats", input: "3")
        try session.set("seats", input: "1")
        #expect(session.dirtyFields.isEmpty)
        #expect(try SQLiteShell().output(database: path, "SELECT email, plan, note FROM accounts;")
            == "ann@example.org|team|kept\n")
    }

    @Test func undoCancelAndReloadKeepDirtyFieldsTrue() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: try store())
        try session.set("seats", input: "4")
        try session.set("plan", input: "pro")
        #expect(session.dirtyFields == ["plan", "seats"])
        _ = try session.undo()
        #expect(session.dirtyFields == ["seats"])
        try SQLiteShell().run(database: path, script: "UPDATE accounts SET email = 'bo@example.com' WHERE id = 1;")
        #expect(try session.reload().isEmpty)
        #expect(session.value("email") == .text("bo@example.com"))
        #expect(session.dirtyFields == ["seats"])
        try session.cancel()
        #expect(session.dirtyFields.isEmpty)
        #expect(session.value("seats") == .int(1))
        try session.set("plan", input: "pro")
        #expect(session.dirtyFields == ["plan"])
        #expect(session.validateChanges().isEmpty)
    }
}
