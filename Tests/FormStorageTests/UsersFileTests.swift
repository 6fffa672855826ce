import FormCore
import FormStoreTestSupport
import Foundation
import Testing
import FormStorage

/// The library leaves a database it did not create as it is: journal mode and
/// schema. FormStore's own tables go to a sidecar, created by the first draft
/// and attached, until the caller asks with `initialize()`.
@Suite struct UsersFileTests {
    let directory: TemporaryDirectory
    let path: String
    let sidecars: URL

    /// A database an application made with the sqlite3 shell (rollback journal).
    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("app.sqlite")
        sidecars = directory.url.appendingPathComponent("state/formstore")
        let shell = try SQLiteShell().start(database: path, script: """
            CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);
            INSERT INTO notes VALUES (1, 'Groceries', 'milk');
            """)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
    }

    var form: Form {
        var form = Form(name: "note", sections: [Section(fields: [
            Field(key: "title", label: "Title", kind: .text), Field(key: "body", label: "Body", kind: .text),
        ])])
        form.table = "notes"
        return form
    }

    func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func journalMode() throws -> String? {
        try Connection(path: path, configuration: { var c = Configuration(); c.readOnly = true; return c }())
            .fetchValue(String.self, "PRAGMA journal_mode")
    }

    func tables() throws -> [String] {
        let conn = try Connection(path: path, configuration: { var c = Configuration(); c.readOnly = true; return c }())
        return try conn.tableNames(includingInternal: true)
    }

    @Test func anExistingFileKeepsItsJournalModeUnlessWALIsAskedFor() throws {
        let kept = try Connection(path: path)
        #expect(!kept.createdFile)
        #expect(try kept.fetchValue(String.self, "PRAGMA journal_mode") == "delete")
        var unchanged = Configuration()
        unchanged.journalMode = .unchanged
        let fresh = try Connection(path: directory.path("new.sqlite"), configuration: unchanged)
        #expect(fresh.createdFile)
        #expect(try fresh.fetchValue(String.self, "PRAGMA journal_mode") == "delete")
        var wal = Configuration()
        wal.journalMode = .wal
        #expect(try Connection(path: path, configuration: wal).fetchValue(String.self, "PRAGMA journal_mode") == "wal")
    }

    @Test func draftsOfAnExistingDatabaseLiveInItsSidecar() throws {
        let before = try bytes()
        let store = try FormStore(path: path, sidecarDirectory: sidecars)
        let sidecar = try #require(store.sidecar)
        #expect(!sidecar.exists)
        #expect(try store.drafts(form: nil).isEmpty)
        #expect(!sidecar.exists, "a read created the sidecar")

        let policy = DraftAutosaver.Policy(interval: .zero, fallback: nil)
        let typing = try FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store, autosave: policy)
        try typing.set("body", input: "milk, eggs")
        typing.close()
        #expect(sidecar.exists)
        #expect(try bytes() == before)
        #expect(try tables() == ["notes"])
        #expect(try journalMode() == "delete")
        let permissions = try FileManager.default.attributesOfItem(atPath: sidecar.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        // Another process (a new store) finds the draft and saves it: the save deletes it.
        let other = try FormStore(path: path, sidecarDirectory: sidecars)
        let resumed = try FormSession.open(form, key: RecordKey("id", 1), backend: other, drafts: other, autosave: policy)
        let offered = try #require(resumed.offeredDrafts.first)
        try resumed.restore(offered)
        #expect(try resumed.save().isSuccess)
        #expect(try other.drafts(form: nil).isEmpty)
        #expect(try tables() == ["notes"])
        #expect(try journalMode() == "delete")
        let body = try other.database.read { try $0.fetchValue(String.self, "SELECT body FROM notes WHERE id = 1") }
        #expect(body == "milk, eggs")
    }

    @Test func aNewFileIsFormStoresAndInitializeTakesAnExistingOneOver() throws {
        let created = try FormStore(path: directory.path("new.sqlite"), sidecarDirectory: sidecars)
        #expect(created.sidecar == nil)
        #expect(try created.database.read { try $0.fetchValue(String.self, "PRAGMA journal_mode") } == "wal")
        #expect(try created.hasDraftTable())

        let store = try FormStore(path: path, sidecarDirectory: sidecars)
        let draft = Draft(id: "d1", form: "note", recordKey: RecordKey("id", 1), formVersion: 1,
                          base: ["title": "Groceries"], baseVersion: nil, values: ["title": "Shopping"], inputs: [:])
        try store.writeDraft(draft)
        #expect(try tables() == ["notes"])
        let applied = try store.initialize()
        #expect(applied.map(\.fileName) == ["0001_settings.sql", "0002_drafts.sql", "0003_forms.sql", "0004_draft_owners.sql", "0005_history.sql",
                                            "0006_history_without_autoincrement.sql"])
        #expect(store.sidecar == nil)
        #expect(try journalMode() == "wal")
        #expect(try tables() == ["formstore_change_fields", "formstore_changes", "formstore_drafts", "formstore_forms",
                                 "formstore_migrations", "formstore_settings", "notes", "sqlite_sequence"])
        // The draft moved into the database; a store opened now keeps its tables there.
        let reopened = try FormStore(path: path, sidecarDirectory: sidecars)
        #expect(reopened.sidecar == nil)
        #expect(try reopened.draft(id: "d1")?.values == draft.values)
    }
}
