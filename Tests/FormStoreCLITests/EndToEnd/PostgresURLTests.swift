import FormStoreTestSupport
import Foundation
import Testing

/// A PostgreSQL URL given to the command opens PostgreSQL; a server that
/// cannot be reached is a storage failure (exit 74) said in one line, the
/// password never repeated, and no file made for it.
@Suite struct PostgresURLTests {
    static let url = "postgresql://app:s3cret-pass@127.0.0.1:1/app?connect_timeout=2"

    @Test(arguments: [["forms"], ["init"], ["list", "people"], ["set", "people", "1", "name=Ann"]])
    func anUnreachableServerIsReportedWithoutThePassword(_ command: [String]) throws {
        let scratch = try TemporaryDirectory()
        for run in [try runBinary(["--db", Self.url] + command, directory: scratch.path),
                    try runBinary(command, environment: ["FORMSTORE_DB": "postgres://app:s3cret-pass@127.0.0.1:1/app"],
                                  directory: scratch.path)] {
            #expect(run.code == 74, "\(command): \(run)")
            #expect(run.errors.hasPrefix("formstore: cannot reach the PostgreSQL database: "), "\(run)")
            #expect(run.errors.split(separator: "\n").count == 1, "\(run)")
            #expect(!run.errors.contains("s3cret"))
            #expect(run.output.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    /// libpq reads a query parameter's name percent-decoded (`pass%77ord` is
    /// `password`): such a password is not repeated either.
    @Test func aPasswordParameterWithAnEncodedNameIsNotRepeated() throws {
        for name in ["pass%77ord", "%70assword", "PASSWORD"] {
            let run = try runBinary(["--db", "postgres://app@127.0.0.1:1/app?\(name)=s3cret-pass&connect_timeout=2", "list", "people"])
            #expect(run.code == 74, "\(run)")
            #expect(!run.errors.contains("s3cret"), "\(run)")
        }
    }

    /// A libpq `key=value` string is no file to open or make: refused as
    /// usage (exit 64), its password not repeated, nothing made.
    @Test func aLibpqConnectionStringIsRefusedWithoutItsPassword() throws {
        let scratch = try TemporaryDirectory()
        let location = "host=127.0.0.1 port=1 user=ro password=s3cret-pass dbname=t1"
        for command in [["list", "people"], ["init"]] {
            let run = try runBinary(["--db", location] + command, directory: scratch.path)
            #expect(run.code == 64, "\(run)")
            #expect(run.errors.hasPrefix("Error: --db host=127.0.0.1 port=1 user=ro dbname=t1 is a libpq connection string: "
                    + "name a PostgreSQL database by its URL (postgresql://USER@HOST:PORT/DBNAME)\n"), "\(run)")
            #expect(!run.errors.contains("s3cret"), "\(run)")
        }
        // As libpq reads them: space around `=`, a quoted value holding a space; `demo` makes no file either.
        for (location, shown) in [("host=x  password = s3cret-pass", "host=x"),
                                  ("host=x password='s3cret pass' dbname=z", "host=x dbname=z")] {
            for command in [["list", "people"], ["demo"]] {
                let run = try runBinary(["--db", location] + command, directory: scratch.path)
                #expect(run.code == 64 && run.errors.hasPrefix("Error: --db \(shown) is a libpq connection string"), "\(run)")
                #expect(!run.errors.contains("s3cret"), "\(run)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    /// A URL libpq cannot read is repeated in its message: the password is not.
    @Test func aMalformedURLsPasswordIsNotRepeated() throws {
        let run = try runBinary(["--db", "postgres://alice:Sup3rS3cret@[::1", "list", "people"])
        #expect(run.code == 74, "\(run)")
        #expect(run.errors.contains(#""postgres://alice@[::1""#), "\(run)")
        #expect(!run.errors.contains("Sup3rS3cret"))
    }

    /// A password libpq cannot decode is quoted alone in its message
    /// (`invalid percent-encoded token: "…"`): it is not repeated either,
    /// from the user information or a query parameter.
    @Test func aPasswordLibpqCannotDecodeIsNotRepeated() throws {
        for location in ["postgres://alice:Sup3r%zzS3cret@127.0.0.1:1/app",
                         "postgres://alice@127.0.0.1:1/app?password=Sup3r%zzS3cret"] {
            let run = try runBinary(["--db", location, "list", "people"])
            #expect(run.code == 74, "\(run)")
            #expect(!run.errors.contains("Sup3r") && !run.errors.contains("S3cret"), "\(run)")
        }
    }

    /// A server that accepts the connection and never answers (a port
    /// another program listens on) is given up on after the default
    /// timeout, not waited for for ever.
    @Test func aServerThatNeverAnswersIsGivenUpOn() throws {
        let listener = try LoopbackSocket(listening: true)
        let started = ContinuousClock.now
        let run = try runBinary(["--db", "postgres://app@127.0.0.1:\(listener.port)/app", "list", "people"])
        #expect(run.code == 74, "\(run)")
        #expect(run.errors.contains("timeout expired"), "\(run)")
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
