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
}
