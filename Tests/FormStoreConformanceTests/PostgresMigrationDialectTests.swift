import FormStorage
@testable import FormStoragePostgres
import Foundation
import Testing

/// FormStore's own migrations whose SQL differs on PostgreSQL have their
/// PostgreSQL form in `Migrations/postgres/`, embedded in the binary.
@Suite struct PostgresMigrationDialectTests {
    private let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Migrations/postgres", isDirectory: true)

    @Test func embeddedCopyMatchesTheFolder() throws {
        var fromFolder: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".sql") {
            fromFolder[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        #expect(!fromFolder.isEmpty)
        #expect(EmbeddedPostgresMigrations.files == fromFolder,
                "Migrations/postgres/ and EmbeddedPostgresMigrations.swift differ: run Scripts/embed-resources.sh")
    }

    @Test func everyDialectFileReplacesAMigrationOfTheSameName() throws {
        let names = Set(try Migrator.formStore.migrations().map(\.fileName))
        for name in EmbeddedPostgresMigrations.files.keys {
            #expect(names.contains(name), "\(name) in Migrations/postgres/ replaces no migration")
        }
        #expect(PostgresMigrator.formStore.dialect == EmbeddedPostgresMigrations.files)
    }

    @Test func historyKeepsItsRowsAndLosesTheChangedAtIndexThrough0006() throws {
        let pool = try PostgresPool(url: try PostgresCluster.freshDatabase(), maxConnections: 2)
        let files = try Migrator.formStore.migrations().filter { $0.number < 6 }.map { ($0.fileName, $0.sql) }
        try PostgresMigrator(Migrator(files: Dictionary(uniqueKeysWithValues: files), table: Migrator.formStore.table),
                             dialect: EmbeddedPostgresMigrations.files).migrate(pool)
        try pool.write { try $0.executeScript("""
            INSERT INTO formstore_changes (form, record_key, changed_at, actor, via) VALUES
                ('person', '{"id":1}', '2026-01-01T00:00:00.000Z', 'ann', 'web'),
                ('person', '{"id":2}', '2026-01-02T00:00:00.000Z', NULL, 'command');
            INSERT INTO formstore_change_fields VALUES (1, 'name', 'Ann', 'Ann Lee', 0), (1, 'email', NULL, NULL, 1),
                (2, 'score', '12.50', NULL, 0);
            """) }
        func rows(_ sql: String) throws -> [[String?]] {
            let result = try pool.read { try $0.execute(sql) }
            return (0..<result.rowCount).map { row in (0..<result.columnCount).map { result.text(row: row, column: $0) } }
        }
        let changes = "SELECT * FROM formstore_changes ORDER BY id"
        let fields = "SELECT * FROM formstore_change_fields ORDER BY change_id, field"
        let before = (try rows(changes), try rows(fields))

        #expect(try PostgresMigrator.formStore.migrate(pool).map(\.fileName) == ["0006_history_without_autoincrement.sql"])
        #expect(try rows(changes) == before.0)
        #expect(try rows(fields) == before.1)
        #expect(try rows("SELECT indexname FROM pg_indexes WHERE tablename = 'formstore_changes' ORDER BY 1")
                == [["formstore_changes_form_record_key"], ["formstore_changes_pkey"]])
        try pool.write { try $0.execute("DELETE FROM formstore_changes WHERE id = 1") }
        #expect(try rows("SELECT DISTINCT change_id FROM formstore_change_fields") == [["2"]])
    }
}
