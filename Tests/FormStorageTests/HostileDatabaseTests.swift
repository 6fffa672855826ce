import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// A database may come from anyone (issue: hostile input): its triggers cannot
/// write SQLite's shadow tables or run unsafe functions through FormStore, and a
/// spec's key must name one row.
@Suite struct HostileDatabaseTests {
    let directory: TemporaryDirectory
    let store: FormStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try FormStore(path: directory.path("hostile.sqlite"))
        try store.database.write { conn in
            try conn.executeScript("""
                CREATE TABLE users (id INTEGER PRIMARY KEY, grp INTEGER, name TEXT, email TEXT UNIQUE);
                INSERT INTO users (grp, name, email) VALUES (1, 'a', 'a@x'), (1, 'b', 'b@x'), (1, 'c', 'c@x');
                CREATE VIRTUAL TABLE ft USING fts5(body);
                INSERT INTO ft (body) VALUES ('hello world');
                """)
        }
    }

    func usersForm(key: [String]) -> Form {
        var form = Form(name: "users", sections: [Section(fields: [
            Field(key: "grp", kind: .integer), Field(key: "name"), Field(key: "email"),
        ])])
        form.table = "users"
        form.primaryKey = key
        return form
    }

    /// A JSON function added to the schema while the store is open (a
    /// migration adding a Django JSONField): the store's prepared statements,
    /// prepared again inside a step, meet SQLite 3.40's refusal of them there,
    /// and read on. Every request of a running server was refused.
    @Test func aJSONFunctionAddedToTheSchemaMeanwhileIsReadOn() throws {
        let form = usersForm(key: ["id"])
        #expect(try store.load(form, key: RecordKey("id", 1))?.values["name"] == "a")
        _ = try SQLiteShell().output(database: directory.path("hostile.sqlite"), """
            ALTER TABLE users ADD COLUMN j TEXT CHECK (j IS NULL OR json_valid(j));
            CREATE INDEX users_j ON users (json_extract(j, '$.a'));
            """)
        for _ in 0..<3 { #expect(try store.load(form, key: RecordKey("id", 1))?.values["name"] == "a") }
    }

    @Test func aTriggerCannotWriteAShadowTable() throws {
        // Planted by someone else's tool: FormStore itself refuses to create such a trigger.
        let shell = try SQLiteShell().start(database: directory.path("hostile.sqlite"), script: """
            CREATE TRIGGER wreck AFTER UPDATE ON users BEGIN UPDATE ft_data SET block = x'deadbeef'; END;
            """)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let session = try FormSession.open(usersForm(key: ["id"]), key: RecordKey("id", 1), backend: store)
        try session.set("name", input: "z")
        #expect(throws: DatabaseError.self) { _ = try session.save() }
        let blocks = try store.database.read { try $0.fetchAll("SELECT count(*) FROM ft_data WHERE block = x'deadbeef'") }
        #expect(blocks.first?[0] == .integer(0))
        let name = try store.database.read { try $0.fetchOne("SELECT name FROM users WHERE id = 1") }
        #expect(name?[0] == .text("a"))
    }

    @Test func aTriggerCannotLoadAnExtension() throws {
        try store.database.write { conn in
            try conn.execute("CREATE TRIGGER ext AFTER UPDATE ON users BEGIN SELECT load_extension('/tmp/x'); END")
        }
        let session = try FormSession.open(usersForm(key: ["id"]), key: RecordKey("id", 1), backend: store)
        try session.set("name", input: "z")
        #expect(throws: DatabaseError.self) { _ = try session.save() }
    }

    @Test func aKeyThatNamesSeveralRowsIsRefused() throws {
        #expect(throws: FormStoreError.self) { _ = try store.mapping(for: usersForm(key: ["grp"])) }
        #expect(throws: FormStoreError.self) {
            _ = try store.delete(usersForm(key: ["grp"]), key: RecordKey("grp", 1), deletingDraft: nil)
        }
        let count = try store.database.read { try $0.fetchOne("SELECT count(*) FROM users") }
        #expect(count?[0] == .integer(3))
    }

    /// A declared key that is not the rowid may hold NULL (SQLite's quirk):
    /// the row is loaded, saved and deleted by a NULL key, and where two rows
    /// hold NULL, neither is loaded by it, and a write naming it changes neither.
    @Test func aRowWhoseKeyIsNullIsFoundByIt() throws {
        try store.database.write { conn in
            try conn.executeScript("""
                CREATE TABLE legacy (code TEXT PRIMARY KEY, name TEXT);
                INSERT INTO legacy VALUES ('a', 'A'), (NULL, 'null row');
                CREATE TABLE twice (code TEXT PRIMARY KEY, name TEXT);
                INSERT INTO twice VALUES (NULL, 'one'), (NULL, 'two');
                """)
        }
        let form = try #require(try store.inferredForm(table: "legacy"))
        let session = try FormSession.open(form, key: RecordKey("code", .null), backend: store)
        #expect(session.value("name") == .text("null row"))
        try session.set("name", input: "renamed")
        #expect(try session.save().isSuccess)
        let names = try store.database.read { try $0.fetchAll("SELECT quote(code) || name FROM legacy ORDER BY rowid") }
        #expect(names.map { $0[0] } == [.text("'a'A"), .text("NULLrenamed")])
        #expect(try store.delete(form, key: RecordKey("code", .null), deletingDraft: nil))
        #expect(try store.load(form, key: RecordKey("code", .null)) == nil)

        let twice = try #require(try store.inferredForm(table: "twice"))
        // Neither is loaded as the record, so neither is shown as it, nor saved.
        #expect(throws: FormStoreError.self) { _ = try FormSession.open(twice, key: RecordKey("code", .null), backend: store) }
        #expect(throws: FormStoreError.self) { _ = try store.delete(twice, key: RecordKey("code", .null), deletingDraft: nil) }
        let kept = try store.database.read { try $0.fetchAll("SELECT name FROM twice ORDER BY rowid") }
        #expect(kept.map { $0[0] } == [.text("one"), .text("two")])
    }

    @Test func aUniqueColumnIsAKey() throws {
        let form = usersForm(key: ["email"])
        let record = try #require(try store.load(form, key: RecordKey("email", "b@x")))
        #expect(record.values["name"] == .text("b"))
    }

    @Test func aPlantedDraftsTableIsNeitherReadNorWritten() throws {
        let path = directory.path("planted.sqlite")
        // Someone else's database with a table named like FormStore's, holding a "draft".
        let shell = try SQLiteShell().start(database: path, script: """
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO people VALUES (1, 'Ann');
            CREATE TABLE formstore_drafts (id TEXT PRIMARY KEY, form TEXT, record_key TEXT, form_version INTEGER,
                payload TEXT, created_at TEXT, updated_at TEXT, owner TEXT);
            INSERT INTO formstore_drafts VALUES ('planted', 'people', '{}', 1, 'not a draft', '2026-01-01', '2099-01-01', NULL);
            """)
        shell.waitUntilExit()
        let store = try FormStore(path: path, sidecarDirectory: URL(fileURLWithPath: directory.path("state")))
        #expect(try store.drafts(form: nil).isEmpty)
        let draft = Draft(id: "mine", form: "people", recordKey: RecordKey("id", 1), formVersion: 1,
                          base: [:], baseVersion: nil, values: ["name": "Annie"], inputs: [:])
        try store.writeDraft(draft)
        #expect(try store.drafts(form: nil).map(\.id) == ["mine"])
        let planted = try store.database.read { try $0.fetchAll("SELECT id FROM main.formstore_drafts") }
        #expect(planted.map { $0[0] } == [.text("planted")])
    }
}
