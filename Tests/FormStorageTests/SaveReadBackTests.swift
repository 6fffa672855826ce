import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// What a session holds after a save: the row as stored, read back in the
/// save's transaction after the `UPDATE`, with whatever a trigger changed.
@Suite struct SaveReadBackTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("app.sqlite")
        // An application's own database, made with the sqlite3 shell.
        let shell = try SQLiteShell().start(database: path, script: """
            CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, edits INTEGER NOT NULL DEFAULT 0,
                version INTEGER NOT NULL DEFAULT 1);
            INSERT INTO notes (title, body) VALUES ('Groceries', 'milk'), ('Books', 'Dune');
            """)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
    }

    func notesForm() -> Form {
        var form = Form(name: "notes", sections: [Section(fields: [
            Field(key: "title", label: "Title"), Field(key: "body", label: "Body"),
            Field(key: "edits", label: "Edits", kind: .integer),
        ])])
        form.versionColumn = "version"
        return form
    }

    func shell(_ script: String) throws {
        let process = try SQLiteShell().start(database: path, script: script)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func aSaveHoldsTheRowAsStoredWithItsVersionBumped() throws {
        let store = try FormStore(path: path)
        let session = try FormSession.open(notesForm(), key: RecordKey("id", 1), backend: store)
        try session.set("body", input: "milk, eggs")
        #expect(try session.save() == .saved(changed: ["body"], key: RecordKey("id", 1)))
        #expect(session.value("body") == "milk, eggs")
        #expect(session.baseVersion == 2)
        #expect(!session.isDirty)
        try session.set("body", input: "milk, eggs, bread")
        #expect(try session.save() == .saved(changed: ["body"], key: RecordKey("id", 1)))
        #expect(session.baseVersion == 3)
        #expect(try SQLiteShell().output(database: path, "SELECT body, version FROM notes WHERE id = 1")
            == "milk, eggs, bread|3\n")
    }

    @Test func aTriggerAddedWhileTheStoreIsOpenIsSeenByTheNextSave() throws {
        let store = try FormStore(path: path)
        let session = try FormSession.open(notesForm(), key: RecordKey("id", 1), backend: store)
        try session.set("body", input: "milk, eggs")
        _ = try session.save()
        #expect(session.value("edits") == 0)
        // Another application adds a trigger that counts edits, after FormStore read the schema.
        try shell("CREATE TRIGGER count_edits AFTER UPDATE OF body ON notes BEGIN "
                  + "UPDATE notes SET edits = edits + 1 WHERE id = NEW.id; END;")
        try session.set("body", input: "milk, eggs, bread")
        #expect(try session.save() == .saved(changed: ["body"], key: RecordKey("id", 1)))
        #expect(session.value("edits") == 1)
        #expect(!session.isDirty)
        try session.set("title", input: "Shopping")
        _ = try session.save()
        #expect(session.value("edits") == 1)
        #expect(session.value("title") == "Shopping")
    }

    @Test func aTriggerThatChangesTheSavedRowIsSeenFromTheFirstSave() throws {
        try shell("CREATE TRIGGER stamp AFTER UPDATE ON notes BEGIN "
                  + "UPDATE notes SET title = upper(NEW.title) WHERE id = NEW.id AND NEW.title <> upper(NEW.title); END;")
        let store = try FormStore(path: path)
        let session = try FormSession.open(notesForm(), key: RecordKey("id", 2), backend: store)
        try session.set("title", input: "Reading list")
        #expect(try session.save() == .saved(changed: ["title"], key: RecordKey("id", 2)))
        #expect(session.value("title") == "READING LIST")
        #expect(session.text("title") == "READING LIST")
    }

    @Test func aSaveBesideAnotherWritersChangeTakesTheirColumnAndRecordsOnlyItsOwn() throws {
        let store = try FormStore(path: path)
        try store.initialize()
        let session = try FormSession.open(notesForm(), key: RecordKey("id", 1), backend: store)
        try session.set("body", input: "oat milk")
        try shell("UPDATE notes SET title = 'Market', version = version + 1 WHERE id = 1;")
        #expect(try session.save() == .saved(changed: ["body"], key: RecordKey("id", 1)))
        #expect(session.value("title") == "Market")
        #expect(session.baseVersion == 3)
        let history = try store.history(notesForm(), key: RecordKey("id", 1))
        #expect(history.last?.fields.map(\.field) == ["body"])
    }

    @Test func anIntegralRealNobodyChangedIsNeitherRecordedNorReadBackAsAnInteger() throws {
        // SQLite's `RETURNING` reports a REAL holding 100.0 as the INTEGER 100; the row holds a REAL.
        try shell("CREATE TABLE prices (id INTEGER PRIMARY KEY, label TEXT, amount REAL); "
                  + "INSERT INTO prices VALUES (1, 'tea', 100.0);")
        let form = Form(name: "prices", sections: [Section(fields: [
            Field(key: "label", label: "Label"), Field(key: "amount", label: "Amount", kind: .decimal),
        ])])
        let store = try FormStore(path: path)
        try store.initialize()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        let amount = session.value("amount")
        try session.set("label", input: "green tea")
        #expect(try session.save() == .saved(changed: ["label"], key: RecordKey("id", 1)))
        #expect(session.value("amount") == amount)
        #expect(!session.isDirty)
        #expect(try store.history(form, key: RecordKey("id", 1)).last?.fields.map(\.field) == ["label"])
        #expect(try SQLiteShell().output(database: path, "SELECT label, typeof(amount) FROM prices") == "green tea|real\n")
    }

    // A save reads the row before its UPDATE in part when nothing but the
    // UPDATE can change it (no trigger anywhere, no generated column): the
    // history and the session must be what a whole read gives.

    /// A store with FormStore's tables, and a session on the note with `id`
    /// whose body it set to `body` and saved.
    func savingBody(_ body: String, ofNote id: FieldValue) throws -> (FormStore, FormSession) {
        let store = try FormStore(path: path)
        try store.initialize()
        let session = try FormSession.open(notesForm(), key: RecordKey("id", id), backend: store)
        try session.set("body", input: body)
        #expect(try session.save() == .saved(changed: ["body"], key: RecordKey("id", id)))
        return (store, session)
    }

    @Test func aSaveReadInPartRecordsTheOldValueOfWhatItChanged() throws {
        let (store, session) = try savingBody("Dune, Emma", ofNote: 2)
        #expect(try store.history(notesForm(), key: RecordKey("id", 2)).last?.fields
            == [FieldChange(field: "body", old: "Dune", new: "Dune, Emma")])
        #expect(session.value("title") == "Books")
        #expect(session.baseVersion == 2)
    }

    @Test func aTriggersOwnChangeIsRecordedBesideTheSavedOne() throws {
        try shell("CREATE TRIGGER count_edits AFTER UPDATE OF body ON notes BEGIN "
                  + "UPDATE notes SET edits = edits + 1 WHERE id = NEW.id; END;")
        let (store, session) = try savingBody("milk, tea", ofNote: 1)
        #expect(session.value("edits") == 1)
        #expect(try store.history(notesForm(), key: RecordKey("id", 1)).last?.fields
            == [FieldChange(field: "body", old: "milk", new: "milk, tea"), FieldChange(field: "edits", old: 0, new: 1)])
    }

    @Test func aTemporaryTriggerOnTheStoresConnectionCountsToo() throws {
        let (store, session) = try savingBody("milk, tea", ofNote: 1)
        // Only this connection sees it: it is in the temporary schema, whose version the main one does not follow.
        try store.database.write { conn in
            try conn.execute("CREATE TEMP TRIGGER count_edits AFTER UPDATE OF body ON main.notes BEGIN "
                             + "UPDATE notes SET edits = edits + 1 WHERE id = NEW.id; END;")
        }
        try session.set("body", input: "milk, tea, bread")
        #expect(try session.save() == .saved(changed: ["body"], key: RecordKey("id", 1)))
        #expect(session.value("edits") == 1)
        #expect(try store.history(notesForm(), key: RecordKey("id", 1)).last?.fields.map(\.field) == ["body", "edits"])
    }

    @Test func aSaveDoesNotOpenTheTemporaryDatabase() throws {
        // A trigger reading `pragma_database_list` would see it listed once opened.
        let (store, _) = try savingBody("milk, tea", ofNote: 1)
        let names = try store.database.write { conn in
            try conn.fetchAll("SELECT name FROM pragma_database_list").map { $0[0] }
        }
        #expect(names == [.text("main")])
    }

    @Test func aGeneratedColumnFollowingTheSavedOneIsReadBackAndRecorded() throws {
        try shell("CREATE TABLE titled (id INTEGER PRIMARY KEY, title TEXT, "
                  + "title_length INTEGER GENERATED ALWAYS AS (length(title)) VIRTUAL); "
                  + "INSERT INTO titled (id, title) VALUES (1, 'Dune');")
        let form = Form(name: "titled", sections: [Section(fields: [
            Field(key: "title", label: "Title"), Field(key: "title_length", label: "Length", kind: .integer).readOnly(),
        ])])
        let store = try FormStore(path: path)
        try store.initialize()
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try session.set("title", input: "Emma")
        _ = try session.save()
        try session.set("title", input: "Middlemarch")
        #expect(try session.save() == .saved(changed: ["title"], key: RecordKey("id", 1)))
        #expect(session.value("title_length") == 11)
        #expect(try store.history(form, key: RecordKey("id", 1)).last?.fields
            == [FieldChange(field: "title", old: "Emma", new: "Middlemarch"),
                FieldChange(field: "title_length", old: 4, new: 11)])
    }
}
