import Foundation
import Testing

/// A PostgreSQL URL given to the command, which opens SQLite only: one
/// refusal, exit 64, the password never repeated, no file made for it.
@Suite struct PostgresURLTests {
    static let url = "postgresql://app:s3cret-pass@db.internal:5432/app?sslmode=require"

    @Test(arguments: [["forms"], ["init"], ["list", "people"], ["set", "people", "1", "name=Ann"]])
    func aPostgresURLIsRefusedWithoutItsPassword(_ command: [String]) throws {
        let scratch = try ScratchDirectory()
        for run in [try runBinary(["--db", Self.url] + command, directory: scratch.path),
                    try runBinary(command, environment: ["FORMSTORE_DB": "postgres://app:s3cret-pass@/app"],
                                  directory: scratch.path)] {
            #expect(run.code == 64, "\(command): \(run)")
            #expect(run.errors.hasPrefix("Error: the formstore command opens SQLite databases only"), "\(run)")
            #expect(!run.errors.contains("s3cret"))
            #expect(run.output.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }
}
