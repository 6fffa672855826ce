import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// A save after a save of the same row, with nothing written in between,
/// is not read back (`SavedRow`): what the session and the history hold
/// must be what a read back would have found, whatever wrote in between.
@Suite struct SavedRowTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        // Columns of every affinity, one untyped, and a version.
        (directory, path) = try TemporaryDirectory.withDatabase("""
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, count INTEGER, price REAL, amount NUMERIC,
                note, code INTEGER, due TEXT, day DATE, version INTEGER);
            INSERT INTO items VALUES (1, 'pen', 1, 1.5, 10, 'x', 7, '2026-01-01', '2026-01-01', NULL);
            """)
    }

    var form: Form {
        var form = Form(name: "items", sections: [Section(fields: [
            Field(key: "name", label: "Name"), Field(key: "count", label: "Count", kind: .integer),
            Field(key: "price", label: "Price", kind: .decimal), Field(key: "amount", label: "Amount", kind: .decimal),
            Field(key: "note", label: "Note"),
            // A text field over an INTEGER column: SQLite stores "42" as 42.
            Field(key: "code", label: "Code"),
            // Dates kept as text: in a TEXT column, and in a DATE one (NUMERIC affinity).
            Field(key: "due", label: "Due", kind: .date), Field(key: "day", label: "Day", kind: .date),
        ])])
        form.versionColumn = "version"
        return form
    }

    func store() throws -> FormStore {
        let store = try FormStore(path: path)
        try store.initialize()
        return store
    }

    /// The row as the sqlite3 shell quotes it.
    func row() throws -> String {
        try SQLiteShell().output(database: path, "SELECT quote(name), quote(count), quote(price), quote(amount), "
                                 + "quote(note), quote(code), quote(due), quote(day), quote(version) FROM items WHERE id = 1")
    }

    /// The stored values the history kept for the last save, as the shell quotes them.
    func lastHistory() throws -> String {
        try SQLiteShell().output(database: path, """
            SELECT group_concat(field || '=' || quote(new_value), ' ') FROM (SELECT field, new_value
              FROM formstore_change_fields WHERE change_id = (SELECT max(id) FROM formstore_changes) ORDER BY field)
            """)
    }

    @Test func savesInARowHoldWhatTheRowHolds() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: try store())
        let edits: [(String, String)] = [("name", "pencil"), ("count", "3"), ("price", "2.25"), ("amount", "12.5"),
                                         ("note", "blue"), ("code", "42"), ("price", "4"), ("amount", "7"),
                                         ("due", "12/02/2026"), ("day", "12/03/2026"), ("name", "pen")]
        var versions: [Int64?] = []
        for (field, input) in edits {
            try session.set(field, input: input)
            let outcome = try session.save()
            #expect(outcome.isSuccess, "\(field): \(outcome)")
            versions.append(session.baseVersion)
        }
        #expect(try row() == "'pen'|3|4.0|7|'blue'|42|'2026-12-02'|'2026-12-03'|11\n")
        #expect(versions == Array(1...11))
        // The history holds what the row does: 42 as SQLite stored it, an integer, not the text typed.
        #expect(try lastHistory() == "name='pen'\n")
        #expect(try SQLiteShell().output(database: path,
            "SELECT quote(new_value) FROM formstore_change_fields WHERE field IN ('amount', 'day') ORDER BY change_id")
            == "12.5\n7\n'2026-12-03'\n")
        #expect(try SQLiteShell().output(database: path,
            "SELECT quote(new_value) FROM formstore_change_fields WHERE field = 'code'") == "42\n")
        let reopened = try FormSession.open(form, key: RecordKey("id", 1), backend: try store())
        for field in ["name", "count", "price", "amount", "note", "code", "due", "day"] {
            #expect(session.value(field) == reopened.value(field), "\(field)")
        }
    }

    @Test func anotherConnectionsWriteBetweenSavesIsSeen() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: try store())
        try session.set("name", input: "pencil")
        #expect(try session.save().isSuccess)
        try SQLiteShell().run(database: path, script: "UPDATE items SET note = 'from the shell' WHERE id = 1;")
        try session.set("count", input: "5")
        #expect(try session.save().isSuccess)
        #expect(session.value("note") == "from the shell")
        #expect(try row() == "'pencil'|5|1.5|10|'from the shell'|7|'2026-01-01'|'2026-01-01'|2\n")
    }

    /// The same connection writing the row by other means (SQL of the
    /// application's, through the store's writer) moves the data version too.
    @Test func theSameConnectionsOtherWriteBetweenSavesIsSeen() throws {
        let store = try store()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try session.set("name", input: "pencil")
        #expect(try session.save().isSuccess)
        try store.database.write { try $0.execute("UPDATE items SET note = 'by the writer' WHERE id = 1") }
        try session.set("count", input: "4")
        #expect(try session.save().isSuccess)
        #expect(session.value("note") == "by the writer")
        try store.database.writeWithoutTransaction { try $0.execute("UPDATE items SET price = 3.25 WHERE id = 1") }
        try session.set("count", input: "5")
        #expect(try session.save().isSuccess)
        #expect(session.value("price") == .double(3.25))
        #expect(try row() == "'pencil'|5|3.25|10|'by the writer'|7|'2026-01-01'|'2026-01-01'|3\n")
    }

    @Test func anotherSessionsSaveOnTheSameStoreIsSeen() throws {
        let store = try store()
        let first = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        let second = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try first.set("name", input: "pencil")
        #expect(try first.save().isSuccess)
        try second.set("note", input: "red")
        #expect(try second.save().isSuccess)
        try first.set("count", input: "9")
        #expect(try first.save().isSuccess)
        #expect(first.value("note") == "red")
        #expect(first.baseVersion == 3)
        #expect(try row() == "'pencil'|9|1.5|10|'red'|7|'2026-01-01'|'2026-01-01'|3\n")
    }

    @Test func aSaveThatFailsLeavesNoRowToReuse() throws {
        let store = try store()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try session.set("name", input: "pencil")
        #expect(try session.save().isSuccess)
        // A save inside a transaction that rolls back: the row is as before it.
        struct Abandoned: Error {}
        let other = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try other.set("note", input: "rolled back")
        let update = try store.updating(form, key: RecordKey("id", 1), changes: ["note": "rolled back"],
                                        base: SaveBase(version: other.baseVersion, values: other.pristine),
                                        deletingDraft: nil, attribution: .library)
        #expect(throws: Abandoned.self) {
            try store.database.write { conn in
                _ = try update(conn)
                throw Abandoned()
            }
        }
        try session.set("count", input: "2")
        #expect(try session.save().isSuccess)
        #expect(session.value("note") == "x")
        #expect(try row() == "'pencil'|2|1.5|10|'x'|7|'2026-01-01'|'2026-01-01'|2\n")
    }

    /// A session keeping drafts in a sidecar: each save deletes its draft in the same transaction.
    @Test func savesThatDeleteTheirDraftHoldWhatTheRowHolds() throws {
        let store = try FormStore(path: path, sidecarDirectory: directory.url.appendingPathComponent("state"))
        let policy = DraftAutosaver.Policy(interval: .zero, fallback: nil)
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store, autosave: policy)
        for (field, input) in [("name", "pencil"), ("count", "2"), ("note", "blue")] {
            try session.set(field, input: input)
            #expect(try session.save().isSuccess)
            #expect(try store.drafts(form: "items").isEmpty)
        }
        try SQLiteShell().run(database: path, script: "UPDATE items SET price = 9.5 WHERE id = 1;")
        try session.set("count", input: "3")
        #expect(try session.save().isSuccess)
        #expect(session.value("price") == .double(9.5))
        #expect(try row() == "'pencil'|3|9.5|10|'blue'|7|'2026-01-01'|'2026-01-01'|4\n")
    }

    /// The next save writes into the record the last one left, in place
    /// when nothing else holds it: a record handed out before keeps its values.
    @Test func aRecordASaveReturnedKeepsItsValuesAfterTheNextSave() throws {
        let store = try store()
        let key = RecordKey("id", 1)
        let loaded = try #require(try store.load(form, key: key))
        guard case .saved(let first) = try store.update(form, key: key, changes: ["name": "pencil"],
                                                        base: SaveBase(version: loaded.version, values: loaded.values),
                                                        deletingDraft: nil) else { Issue.record("not saved"); return }
        guard case .saved(let second) = try store.update(form, key: key, changes: ["name": "marker", "count": 4],
                                                         base: SaveBase(version: first.version, values: first.values),
                                                         deletingDraft: nil) else { Issue.record("not saved"); return }
        #expect(first.values["name"] == "pencil" && first.values["count"] == 1 && first.version == 1)
        #expect(second.values["name"] == "marker" && second.values["count"] == 4 && second.version == 2)
        #expect(loaded.values["name"] == "pen" && loaded.version == nil)
        // A session's values, read between its saves, stay what they were read as.
        let session = try FormSession.open(form, key: key, backend: store)
        let before = session.pristine
        try session.set("note", input: "green")
        #expect(try session.save().isSuccess)
        #expect(before["note"] == "x" && session.pristine["note"] == "green" && session.pristine["name"] == "marker")
    }

    /// A save of several fields, each read in part before it: each is
    /// recorded with what it held, and a conflict on one writes none.
    @Test func aSaveOfSeveralFieldsRecordsEachAndAConflictWritesNone() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: try store())
        try session.set("note", input: "blue")
        try session.set("name", input: "pencil")
        try session.set("count", input: "2")
        #expect(try session.save().isSuccess)
        #expect(try SQLiteShell().output(database: path, """
            SELECT group_concat(field || ':' || quote(old_value) || '>' || quote(new_value), ' ') FROM
              (SELECT * FROM formstore_change_fields ORDER BY field)
            """) == "count:1>2 name:'pen'>'pencil' note:'x'>'blue'\n")
        try SQLiteShell().run(database: path, script: "UPDATE items SET name = 'theirs', version = 5 WHERE id = 1;")
        try session.set("name", input: "mine")
        try session.set("count", input: "3")
        guard case .conflict(let conflicts) = try session.save() else { Issue.record("no conflict"); return }
        #expect(conflicts.map(\.field) == ["name"])
        #expect(try row() == "'theirs'|2|1.5|10|'blue'|7|'2026-01-01'|'2026-01-01'|5\n")
    }
}
