import FormStoreTestSupport
import Foundation
import FormStorage
import Testing

@Suite struct MigratorTests {
    let directory: TemporaryDirectory
    let db: Database
    let folder: URL

    init() throws {
        directory = try TemporaryDirectory()
        db = try Database(path: directory.path("db.sqlite"))
        folder = directory.url.appendingPathComponent("migrations", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func write(_ name: String, _ sql: String) throws {
        try Data(sql.utf8).write(to: folder.appendingPathComponent(name))
    }

    private func migrationError(_ body: () throws -> Void) -> MigrationError? {
        do {
            try body()
            Issue.record("expected a MigrationError, nothing was thrown")
        } catch let error as MigrationError {
            return error
        } catch {
            Issue.record("expected a MigrationError, got \(error)")
        }
        return nil
    }

    private func tables() throws -> [String] {
        try db.read { try $0.tableNames(includingInternal: true) }
    }

    @Test func appliesInNumericOrderOnce() throws {
        // 10 sorts before 9 as text: the order must be numeric.
        for n in 1...10 {
            let previous = n == 1 ? "" : "INSERT INTO log VALUES (\(n));"
            try write(String(format: "%d_step.sql", n), n == 1 ? "CREATE TABLE log(n INTEGER);" : previous)
        }
        let migrator = try Migrator(directory: folder, table: "formstore_user_migrations")
        let applied = try migrator.migrate(db)
        #expect(applied.map(\.number) == Array(1...10))
        let logged = try db.read { try $0.fetchAll("SELECT n FROM log ORDER BY rowid").map { try $0.value(at: 0, as: Int.self) } }
        #expect(logged == Array(2...10))
        // Idempotent: a second run applies nothing and changes nothing.
        #expect(try migrator.migrate(db).isEmpty)
        #expect(try db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM log") } == 9)
        let records = try migrator.appliedMigrations(db)
        #expect(records.map(\.number) == Array(1...10))
        #expect(records.first?.name == "1_step.sql")
        #expect(records.allSatisfy { $0.appliedAt != nil && $0.checksum.count == 64 })
    }

    @Test func appliesOnlyNewMigrationsLater() throws {
        try write("0001_a.sql", "CREATE TABLE a(x);")
        #expect(try Migrator(directory: folder).migrate(db).map(\.fileName) == ["0001_a.sql"])
        try write("0002_b.sql", "CREATE TABLE b(x);")
        #expect(try Migrator(directory: folder).migrate(db).map(\.fileName) == ["0002_b.sql"])
        #expect(try tables().contains("b"))
    }

    @Test func refusesAnEditedFileAndNamesIt() throws {
        try write("0001_a.sql", "CREATE TABLE a(x);")
        try write("0002_b.sql", "CREATE TABLE b(x);")
        try Migrator(directory: folder).migrate(db)
        try write("0002_b.sql", "CREATE TABLE b(x, y);")
        try write("0003_c.sql", "CREATE TABLE c(x);")
        let error = migrationError { try Migrator(directory: folder).migrate(db) }
        #expect(error?.kind == .checksumMismatch)
        #expect(error?.fileName == "0002_b.sql")
        #expect(error?.description.contains("0002_b.sql") == true)
        #expect(try !tables().contains("c"))
    }

    @Test func refusesAGap() throws {
        try write("0001_a.sql", "CREATE TABLE a(x);")
        try write("0003_c.sql", "CREATE TABLE c(x);")
        let error = migrationError { try Migrator(directory: folder).migrate(db) }
        #expect(error?.kind == .gap)
        #expect(error?.fileName == "0003_c.sql")
        #expect(try !tables().contains("a"))
    }

    @Test func refusesAMissingFirstNumber() throws {
        try write("0002_b.sql", "CREATE TABLE b(x);")
        let error = migrationError { try Migrator(directory: folder).migrate(db) }
        #expect(error?.kind == .gap)
    }

    @Test func refusesADuplicateNumber() throws {
        try write("0001_a.sql", "CREATE TABLE a(x);")
        try write("0002_b.sql", "CREATE TABLE b(x);")
        try write("2_other.sql", "CREATE TABLE other(x);")
        let error = migrationError { try Migrator(directory: folder).migrate(db) }
        #expect(error?.kind == .duplicateNumber)
        #expect(error?.description.contains("0002_b.sql") == true)
        #expect(error?.description.contains("2_other.sql") == true)
    }

    @Test func refusesABadFileNameButIgnoresOtherFiles() throws {
        try write("0001_a.sql", "CREATE TABLE a(x);")
        try Data("notes".utf8).write(to: folder.appendingPathComponent("README.md"))
        #expect(try Migrator(directory: folder).migrate(db).count == 1)
        try write("two.sql", "CREATE TABLE two(x);")
        let error = migrationError { try Migrator(directory: folder).migrate(db) }
        #expect(error?.kind == .invalidFileName)
        #expect(error?.fileName == "two.sql")
    }

    @Test func aFailingMigrationKeepsNothingOfItself() throws {
        try write("0001_a.sql", "CREATE TABLE a(x);")
        try write("0002_b.sql", "CREATE TABLE b(x); INSERT INTO missing VALUES (1);")
        let error = migrationError { try Migrator(directory: folder).migrate(db) }
        #expect(error?.kind == .failed)
        #expect(error?.fileName == "0002_b.sql")
        #expect(error?.underlyingError?.resultCode == .SQLITE_ERROR)
        let names = try tables()
        #expect(names.contains("a"))
        #expect(!names.contains("b"))
        #expect(try Migrator(directory: folder).appliedMigrations(db).map(\.number) == [1])
    }

    @Test func aDatabaseNewerThanTheFilesIsRefused() throws {
        try write("0001_a.sql", "CREATE TABLE a(x);")
        try write("0002_b.sql", "CREATE TABLE b(x);")
        try Migrator(directory: folder).migrate(db)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("0002_b.sql"))
        let error = migrationError { try Migrator(directory: folder).migrate(db) }
        #expect(error?.kind == .unknownMigration)
        #expect(error?.fileName == "0002_b.sql")
    }

    @Test func aMissingFolderIsUnreadable() {
        let error = migrationError { _ = try Migrator(directory: folder.appendingPathComponent("nope")) }
        #expect(error?.kind == .unreadable)
    }

    @Test func formStoreAndUserMigrationsUseSeparateTables() throws {
        try write("0001_a.sql", "CREATE TABLE a(x);")
        try Migrator.formStore.migrate(db)
        try Migrator(directory: folder).migrate(db)
        let names = try tables()
        #expect(names.contains("formstore_migrations"))
        #expect(names.contains("formstore_user_migrations"))
        #expect(try Migrator.formStore.appliedMigrations(db).map(\.name) == ["0001_settings.sql", "0002_drafts.sql", "0003_forms.sql",
                                                                            "0004_draft_owners.sql", "0005_history.sql",
                                                                            "0006_history_without_autoincrement.sql"])
        #expect(try Migrator(directory: folder).appliedMigrations(db).map(\.name) == ["0001_a.sql"])
        #expect(try db.read { try $0.tableNames() } == ["a"])
    }

    @Test func formStoreSchema() throws {
        #expect(try Migrator.formStore.migrate(db).count == Migrator.formStore.migrations().count)
        #expect(try Migrator.formStore.migrate(db).isEmpty)
        let settings = try db.read { try $0.tableInfo("formstore_settings") }
        #expect(settings.columns.map(\.name) == ["key", "value", "updated_at"])
        #expect(settings.primaryKey == .columns(["key"]))
        #expect(settings.columns.map(\.isNotNull) == [true, true, true])
        let drafts = try db.read { try $0.tableInfo("formstore_drafts") }
        #expect(drafts.columns.map(\.name)
                == ["id", "form", "record_key", "form_version", "payload", "created_at", "updated_at", "owner"])
        #expect(drafts.column("record_key")?.isNotNull == false)
        #expect(drafts.column("form_version")?.affinity == .integer)
        let indexed = try db.read {
            try $0.fetchAll("SELECT name FROM pragma_index_info('formstore_drafts_form_record_key') ORDER BY seqno")
                .map { try $0.value(at: 0, as: String.self) }
        }
        #expect(indexed == ["form", "record_key"])
    }

    @Test func twoHandlesMigratingAtOnceApplyEachMigrationOnce() async throws {
        for n in 1...5 { try write("000\(n)_t.sql", "CREATE TABLE t\(n)(x);") }
        let other = try Database(path: db.path)
        let folder = self.folder
        let db = self.db
        async let first = Task { try Migrator(directory: folder).migrate(db).count }.value
        async let second = Task { try Migrator(directory: folder).migrate(other).count }.value
        let total = try await first + second
        #expect(total == 5)
        #expect(try Migrator(directory: folder).appliedMigrations(db).count == 5)
    }
}
