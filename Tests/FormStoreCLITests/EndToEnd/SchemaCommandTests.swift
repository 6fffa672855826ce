import FormStoreTestSupport
import Foundation
import Testing

/// `init` and `migrate` through the built binary: the only commands that
/// create a database, and only when they succeed.
@Suite struct SchemaCommandTests {
    @Test func initCreatesAPrivateDatabaseOnceAndThenIsUpToDate() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/new.sqlite"
        let first = try runBinary(["--db", path, "init"])
        #expect(first.code == 0, "\(first)")
        #expect(first.errors == "Applied 6 migration(s) to \(path)\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let second = try runBinary(["--db", path, "init"])
        #expect(second.errors == "Up to date: \(path)\n")
        #expect(try sqlite3(path, ["SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"])
            .contains("formstore_drafts\n"))
    }

    @Test func migrateAppliesNumberedFilesOnceEach() throws {
        let scratch = try TemporaryDirectory()
        let folder = scratch.path + "/migrations"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try #"CREATE TABLE "order" ("select" INTEGER PRIMARY KEY, "a b" TEXT NOT NULL);"#
            .write(toFile: folder + "/0001_order.sql", atomically: true, encoding: .utf8)
        try #"INSERT INTO "order" ("a b") VALUES ('one');"#
            .write(toFile: folder + "/0002_rows.sql", atomically: true, encoding: .utf8)
        let path = scratch.path + "/app.sqlite"
        let run = try runBinary(["--db", path, "migrate", folder])
        #expect(run.code == 0, "\(run)")
        #expect(run.output == "0001_order.sql\n0002_rows.sql\n")
        #expect(run.errors == "Applied 2 migration(s).\n")
        let again = try runBinary(["--db", path, "migrate", folder])
        #expect(again.output.isEmpty)
        #expect(again.errors == "No new migrations.\n")
        let list = try runBinary(["--db", path, "list", "order", "--format", "csv"])
        #expect(list.output == "select,a b\r\n1,one\r\n")
    }

    @Test func aFailedMigrationOfANewDatabaseLeavesNoFile() throws {
        let scratch = try TemporaryDirectory()
        let folder = scratch.path + "/migrations"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "CREATE TABLE oops (;".write(toFile: folder + "/0001_broken.sql", atomically: true, encoding: .utf8)
        let path = scratch.path + "/app.sqlite"
        let run = try runBinary(["--db", path, "migrate", folder])
        #expect(run.code == 65)
        #expect(run.errors.hasPrefix("formstore: Migration 0001_broken.sql: failed and was rolled back: "))
        #expect(!FileManager.default.fileExists(atPath: path))
        try "x".write(toFile: folder + "/001-bad-name.sql", atomically: true, encoding: .utf8)
        let badName = try runBinary(["--db", path, "migrate", folder])
        #expect(badName.code == 65)
        #expect(!FileManager.default.fileExists(atPath: path))
        let missing = try runBinary(["--db", path, "migrate", scratch.path + "/none"])
        #expect(missing.code == 66)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Each file is its own transaction: in a database that was there, a
    /// failed file names the ones the run applied before it, which stay.
    @Test func aFailedMigrationNamesTheFilesAppliedBeforeIt() throws {
        let scratch = try TemporaryDirectory()
        let folder = scratch.path + "/migrations"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "CREATE TABLE a (x);".write(toFile: folder + "/0001_a.sql", atomically: true, encoding: .utf8)
        try "CREATE TABLE b (;".write(toFile: folder + "/0002_b.sql", atomically: true, encoding: .utf8)
        try "CREATE TABLE c (x);".write(toFile: folder + "/0003_c.sql", atomically: true, encoding: .utf8)
        let path = scratch.path + "/app.sqlite"
        FileManager.default.createFile(atPath: path, contents: nil)
        let run = try runBinary(["--db", path, "migrate", folder])
        #expect(run.code == 65)
        #expect(run.errors.hasPrefix("formstore: Migration 0002_b.sql: failed and was rolled back: "), "\(run)")
        #expect(run.errors.hasSuffix("\n  applied before it, and kept: 0001_a.sql\n"), "\(run)")
        #expect(try sqlite3(path, ["SELECT name FROM sqlite_schema WHERE name IN ('a', 'b', 'c')"]) == "a\n")
    }
}
