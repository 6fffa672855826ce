import FormStoreTestSupport
import Foundation
import Testing

/// libpq and libmicrohttpd are opened when a command first needs them, not
/// linked (docs/binary.md): the binary starts without them, and when one is
/// missing the command that needs it says which Debian package to install
/// (exit 69) while every other command runs as before. The tests make a
/// library "missing" by naming a file that does not exist in the variable the
/// loader reads.
@Suite struct LibraryOnUseTests {
    static let missing = "libformstore-test-missing.so.0"

    @Test func theBinaryDoesNotLinkLibpqOrLibmicrohttpd() throws {
        let path = try formstoreBinary()
        let ldd = try runProcess("/usr/bin/env", ["ldd", path])
        #expect(ldd.code == 0, "\(ldd)")
        #expect(ldd.output.contains("libsqlite3"), "\(ldd)")
        for library in ["libpq", "libmicrohttpd", "libssl", "libcrypto", "libgnutls", "libkrb5", "libldap"] {
            #expect(!ldd.output.contains(library), "\(path) loads \(library) at start:\n\(ldd.output)")
        }
    }

    @Test func aPostgreSQLURLWithoutLibpqNamesThePackage() throws {
        let scratch = try TemporaryDirectory()
        let url = "postgresql://app:s3cret-pass@127.0.0.1:1/app?connect_timeout=2"
        for command in [["list", "people"], ["set", "people", "1", "name=Ann"], ["init"]] {
            let run = try runBinary(["--db", url] + command, environment: ["FORMSTORE_LIBPQ": Self.missing],
                                    directory: scratch.path)
            #expect(run.code == 69, "\(command): \(run)")
            #expect(run.errors.hasPrefix("formstore: a PostgreSQL database needs libpq, which cannot be loaded "
                                         + "(install the Debian package libpq5): \(Self.missing): "), "\(run)")
            #expect(run.errors.split(separator: "\n").count == 1, "\(run)")
            #expect(!run.errors.contains("s3cret"), "\(run)")
            #expect(run.output.isEmpty, "\(run)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test func serveWithoutLibmicrohttpdNamesThePackage() throws {
        let scratch = try TemporaryDirectory()
        let db = scratch.path + "/app.sqlite"
        try sqlite3(db, input: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO people VALUES (1, 'Ann');")
        let run = try runBinary(["--db", db, "serve", "--listen", "127.0.0.1:0"],
                                environment: ["FORMSTORE_LIBMICROHTTPD": Self.missing])
        #expect(run.code == 69, "\(run)")
        #expect(run.errors.hasPrefix("formstore: formstore serve needs libmicrohttpd, which cannot be loaded "
                                     + "(install the Debian package libmicrohttpd12): \(Self.missing): "), "\(run)")
        #expect(run.errors.split(separator: "\n").count == 1, "\(run)")
        #expect(run.output.isEmpty, "\(run)")
    }

    @Test func aSQLiteDatabaseNeedsNeitherLibrary() throws {
        let scratch = try TemporaryDirectory()
        let db = scratch.path + "/app.sqlite"
        try sqlite3(db, input: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO people VALUES (1, 'Ann');")
        let missing = ["FORMSTORE_LIBPQ": Self.missing, "FORMSTORE_LIBMICROHTTPD": Self.missing]
        let show = try runBinary(["--db", db, "show", "people", "1", "--format", "json"], environment: missing)
        #expect(show.code == 0, "\(show)")
        #expect(show.output == "{\n  \"id\": 1,\n  \"name\": \"Ann\"\n}\n", "\(show)")
        let set = try runBinary(["--db", db, "set", "people", "1", "name=Bo"], environment: missing)
        #expect(set.code == 0, "\(set)")
        #expect(try sqlite3(db, ["SELECT name FROM people"]) == "Bo\n")
    }
}
