import FormStoreTestSupport
import Foundation
import Testing

/// The `formstore` command against both backends (`--db PATH` or `--db
/// postgres://…`), run as a script runs it: the same exit codes, the same
/// answers, and the same fidelity.
@Suite struct CommandConformanceTests {
    @Test(arguments: BackendKind.allCases)
    func exitCodesAreTheSameOnBothBackends(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let db = ["--db", backend.location]
        let cases: [(arguments: [String], code: Int32)] = [
            (["forms"], 0),
            (["list", "people", "--format", "json"], 0),
            (["show", "people", "1"], 0),
            (["show", "people", "99"], 66),
            (["list", "nosuch"], 66),
            (["set", "people", "1", "nosuch=1"], 64),
            (["set", "people", "1", "name="], 65),
            (["new", "people", "name=Bo Park", "email=bo@example.com", "born=2001-02-03", "score=7.25"], 0),
            (["set", "people", "2", "email=bo@example.org", "subscribed=yes"], 0),
            (["list", "people", "--where", "email~example.org", "--format", "csv"], 0),
            (["delete", "people", "2"], 64),
            (["delete", "people", "2", "--yes"], 0),
            (["delete", "people", "2", "--yes"], 66),
        ]
        for (arguments, code) in cases {
            let run = try runBinary(db + arguments)
            #expect(run.code == code, "\(kind) \(arguments): \(run)")
        }
        let listed = try runBinary(db + ["list", "people", "--format", "json"])
        #expect(listed.output.contains("\"Ann Lee\""), "\(listed)")
        #expect(try backend.count("SELECT count(*) FROM people") == 1)
    }

    @Test(arguments: BackendKind.allCases)
    func setWritesTheColumnsOwnTypeAndOnlyWhatChanged(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let run = try runBinary(["--db", backend.location, "set", "people", "1", "born=1999-12-31", "score=3.5"])
        #expect(run.code == 0, "\(run)")
        let row = try #require(try backend.row("SELECT born, score, email, version FROM people WHERE id = 1"))
        #expect(row[0] == "1999-12-31")
        #expect(row[1].flatMap(Double.init) == 3.5)
        #expect(row[2] == "ann@example.com")
        if kind == .postgres {
            // The column's own type, not text that looks like it.
            #expect(try backend.row("SELECT pg_typeof(born)::text, pg_typeof(score)::text FROM people WHERE id = 1")
                    == ["date", "numeric"])
        }
    }

    @Test func aPostgresPasswordIsNeverPrinted() throws {
        let admin = try PostgresCluster.adminURL()
        // Another database on the same server, which does not exist, named with a password.
        let url = admin.replacingOccurrences(of: "formstore@/postgres", with: "formstore:s3cret-pass@/no_such_database")
        #expect(url.contains("s3cret-pass"))
        for arguments in [["forms"], ["list", "people"], ["set", "people", "1", "name=Ann"], ["init"]] {
            let run = try runBinary(["--db", url] + arguments)
            #expect(run.code == 74, "\(arguments): \(run)")
            #expect(run.errors.hasPrefix("formstore: cannot reach the PostgreSQL database: "), "\(run)")
            #expect(run.errors.split(separator: "\n").count == 1, "\(run)")
            #expect(!run.errors.contains("s3cret") && !run.output.contains("s3cret"))
        }
    }

    @Test(arguments: BackendKind.allCases)
    func childrenOfATableNothingRefersToShowTheRecordAlone(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let run = try runBinary(["--db", backend.location, "show", "people", "1", "--children"])
        #expect(run.code == 0, "\(kind): \(run)")
        #expect(run.output.hasPrefix("id:         1\nname:       Ann Lee\n"), "\(kind): \(run)")
    }

    /// Each file is its own transaction on either database: a failed file is
    /// named, with the files the run applied before it, which stay.
    @Test(arguments: BackendKind.allCases)
    func aFailedMigrationNamesItsFileAndThoseAppliedBeforeIt(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let scratch = try TemporaryDirectory()
        let folder = scratch.path + "/migrations"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "CREATE TABLE mig_a (x INTEGER);".write(toFile: folder + "/0001_a.sql", atomically: true, encoding: .utf8)
        try "CREATE TABLE mig_b (;".write(toFile: folder + "/0002_b.sql", atomically: true, encoding: .utf8)
        try "CREATE TABLE mig_c (x INTEGER);".write(toFile: folder + "/0003_c.sql", atomically: true, encoding: .utf8)
        let run = try runBinary(["--db", backend.location, "migrate", folder])
        #expect(run.code == 65, "\(kind): \(run)")
        #expect(run.errors.hasPrefix("formstore: Migration 0002_b.sql: failed and was rolled back: "), "\(kind): \(run)")
        #expect(run.errors.hasSuffix("\n  applied before it, and kept: 0001_a.sql\n"), "\(kind): \(run)")
        #expect(try backend.count("SELECT count(*) FROM mig_a") == 0)
        #expect(throws: (any Error).self) { try backend.count("SELECT count(*) FROM mig_c") }
    }

    @Test func initCreatesFormStoresTablesOnPostgresAndEditKeepsDraftsThere() throws {
        let backend = try TestBackend(.postgres, schema: People.schema)
        let none = try runBinary(["--db", backend.location, "drafts"])
        #expect(none.code == 0, "\(none)")
        let first = try runBinary(["--db", backend.location, "init"])
        #expect(first.code == 0, "\(first)")
        #expect(first.errors.hasPrefix("Applied") || first.errors.hasPrefix("Up to date"), "\(first)")
        #expect(try backend.count("SELECT count(*) FROM formstore_migrations") > 0)
        let again = try runBinary(["--db", backend.location, "init"])
        #expect(again.errors.hasPrefix("Up to date"), "\(again)")
        // Prompts, ended before saving: what was typed is kept as a draft in the database.
        let edit = try runBinary(["--db", backend.location, "edit", "people", "1", "--plain"], stdin: "Ann Park\n")
        #expect(edit.code == 1, "\(edit)")
        let drafts = try runBinary(["--db", backend.location, "drafts"])
        #expect(drafts.code == 0, "\(drafts)")
        #expect(drafts.output.contains("people"), "\(drafts)")
        #expect(try backend.row("SELECT name FROM people WHERE id = 1") == ["Ann Lee"])
    }
}
