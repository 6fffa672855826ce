import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// Migrations/0006 rebuilds the history's tables without AUTOINCREMENT and
/// without the `changed_at` index: a database that kept history before it
/// keeps every change and field, with the same ids and stored values.
@Suite struct HistoryMigrationTests {
    let database: AccountsDatabase
    var path: String { database.path }

    init() throws {
        database = try AccountsDatabase("""
            CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT NOT NULL, plan TEXT, seats INTEGER, score REAL, pin TEXT);
            INSERT INTO accounts VALUES (1, 'ann@example.com', 'free', 1, 2.5, '1234');
            """)
    }

    /// FormStore's migrations as a database made before 0006 has them.
    static func before0006() throws -> Migrator {
        let files = try Migrator.formStore.migrations().filter { $0.number < 6 }.map { ($0.fileName, $0.sql) }
        return Migrator(files: Dictionary(uniqueKeysWithValues: files), table: Migrator.formStore.table)
    }

    /// The accounts form with a decimal and a secure field more.
    var form: Form {
        var form = database.form
        var pin = Field(key: "pin", label: "PIN", kind: .text)
        pin.isSecure = true
        form.sections[0].fields += [Field(key: "score", label: "Score", kind: .decimal), pin]
        return form
    }

    /// Every history row, each value as `quote()` writes it (its storage class shows).
    func historyRows(_ database: String) throws -> String {
        try SQLiteShell().output(database: database, """
            SELECT quote(id), quote(form), quote(record_key), quote(changed_at), quote(actor), quote(via)
                FROM formstore_changes ORDER BY id;
            SELECT quote(change_id), quote(field), quote(old_value), quote(new_value), quote(secure)
                FROM formstore_change_fields ORDER BY change_id, field;
            """)
    }

    /// Saves of several fields, one of them secure, and of a new record, through a store on `database`.
    func makeHistory(_ store: FormStore) throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        session.attribution = ChangeAttribution(actor: "ann", via: .web)
        try session.set("plan", input: "team")
        try session.set("seats", input: "5")
        try session.set("pin", input: "9999")
        #expect(try session.save().isSuccess)
        try session.set("plan", value: .null)
        try session.set("score", input: "3.75")
        #expect(try session.save().isSuccess)
        let fresh = FormSession.new(form, backend: store)
        try fresh.set("email", input: "bo@example.com")
        try fresh.set("seats", input: "2")
        #expect(try fresh.save().isSuccess)
    }

    @Test func aDatabaseWithHistoryKeepsEveryRowAndIdThroughTheMigration() throws {
        let database = try Database(path: path)
        try Self.before0006().migrate(database)
        try makeHistory(try FormStore(database: database, applyingMigrations: false))
        // A view of the user's over the history outlives the tables' rebuild.
        try database.write { try $0.execute("""
            CREATE VIEW account_history AS SELECT c.id, f.field FROM formstore_changes c JOIN formstore_change_fields f ON f.change_id = c.id
            """) }
        let before = try historyRows(path)
        #expect(before.split(separator: "\n").count == 3 + 7)
        #expect(try SQLiteShell().output(database: path, "SELECT seq FROM sqlite_sequence WHERE name = 'formstore_changes'") == "3\n")

        let store = try FormStore(database: database)
        #expect(try Migrator.formStore.appliedMigrations(database).last?.name == "0006_history_without_autoincrement.sql")
        #expect(try historyRows(path) == before)
        #expect(try SQLiteShell().output(database: path, "SELECT count(*) FROM account_history") == "7\n")
        #expect(try store.history(form, key: RecordKey("id", 1)).map(\.id) == [1, 2])
        try expectHistorySchema(path)

        // The next save takes the next id, and its fields cascade with it.
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try session.set("seats", input: "6")
        #expect(try session.save().isSuccess)
        #expect(try store.history(form, key: RecordKey("id", 1)).map(\.id) == [1, 2, 4])
        try database.write { try $0.execute("DELETE FROM formstore_changes WHERE id IN (1, 4)") }
        #expect(try SQLiteShell().output(database: path, "SELECT DISTINCT change_id FROM formstore_change_fields ORDER BY 1")
                == "2\n3\n")
    }

    @Test func aSidecarWithHistoryMigratesToo() throws {
        let sidecar = try #require(try database.store().sidecar)
        // A sidecar an earlier FormStore made, at 0005, with the history of one save.
        try PrivateDirectory.prepare(sidecar.directory)
        do {
            var configuration = Configuration()
            configuration.journalMode = .unchanged
            let old = try Connection(path: sidecar.path, configuration: configuration)
            try Self.before0006().migrate(old)
            try old.executeScript("""
                INSERT INTO formstore_changes (form, record_key, changed_at, actor, via)
                    VALUES ('account', '{"id":1}', '2026-01-02T03:04:05.678Z', 'ann', 'command');
                INSERT INTO formstore_change_fields VALUES (1, 'seats', 1, 5, 0), (1, 'score', 2.5, X'00FF', 0),
                    (1, 'pin', NULL, NULL, 1);
                """)
        }
        let before = try historyRows(sidecar.path)

        let store = try database.store()
        #expect(try historyRows(sidecar.path) == before)
        try expectHistorySchema(sidecar.path)
        #expect(try SQLiteShell().output(database: path, "SELECT name FROM sqlite_schema") == "accounts\n")
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try session.set("plan", input: "team")
        #expect(try session.save().isSuccess)
        #expect(try SQLiteShell().output(database: sidecar.path, "SELECT max(id) FROM formstore_changes") == "2\n")
    }

    /// The history's tables as 0006 leaves them.
    func expectHistorySchema(_ database: String) throws {
        let shell = try SQLiteShell()
        #expect(try shell.output(database: database, """
            SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'formstore_changes'
            """) == "formstore_changes_form_record_key\n")
        #expect(try shell.output(database: database, """
            SELECT name FROM pragma_index_info('formstore_changes_form_record_key') ORDER BY seqno
            """) == "form\nrecord_key\nid\n")
        #expect(try shell.output(database: database, "SELECT count(*) FROM sqlite_schema WHERE sql LIKE '%AUTOINCREMENT%'") == "0\n")
        #expect(try shell.output(database: database, "SELECT count(*) FROM sqlite_sequence WHERE name = 'formstore_changes'") == "0\n")
        #expect(try shell.output(database: database, """
            SELECT "table", "from", "to", on_delete FROM pragma_foreign_key_list('formstore_change_fields')
            """) == "formstore_changes|change_id|id|CASCADE\n")
        #expect(try shell.output(database: database, "PRAGMA foreign_key_check") == "")
        #expect(try shell.output(database: database, "SELECT count(*) FROM sqlite_schema WHERE name LIKE '%kept'") == "0\n")
    }

    @Test func pruningByAgeWalksTheSavesInIdOrderAndStopsAtTheFirstKept() throws {
        let store = try FormStore(path: database.directory.path("own.sqlite"))
        let prune = HistorySQL.of("main").pruneByAge
        let plans = try store.database.read { conn in
            try [prune.fields, prune.changes].map { sql in
                try conn.fetchAll("EXPLAIN QUERY PLAN " + sql, ["2026-01-01T00:00:00.000Z"]).map { try $0.value(at: 3, as: String.self) }
            }
        }
        // No sort, no index: the first save at or after the cutoff in rowid order ends the walk.
        for plan in plans {
            #expect(plan.contains("SCAN main.formstore_changes"), "\(plan)")
            #expect(!plan.contains { $0.contains("B-TREE") || $0.contains("INDEX") }, "\(plan)")
        }
        #expect(plans[0].contains("SEARCH main.formstore_change_fields USING PRIMARY KEY (change_id<?)"), "\(plans[0])")
        #expect(plans[1].contains("SEARCH main.formstore_changes USING INTEGER PRIMARY KEY (rowid<?)"), "\(plans[1])")
    }
}
