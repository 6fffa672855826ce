import FormCore
import FormStoragePostgres
import FormStoreTestSupport
import Foundation
import Testing

/// The README's PostgreSQL example, compiled and run here. The test fails
/// when the README's ```swift block and the lines between the markers differ.
@Suite struct ReadmePostgresExampleTests {
    @Test func theExampleSavesOverPostgreSQL() async throws {
        let url = try TestBackend(.postgres, schema: People.schema).location
        let form = People.form()
        let userID = "ann"
        // README-PG-BEGIN
        // url: "postgresql://app@/app?host=/run/postgresql&sslmode=disable", say (libpq's own URL)
        let store = try PostgresFormStore(url: url, maxConnections: 8)
        let session = try await FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store, owner: userID)
        try session.set("name", input: "Ann Park")
        let outcome = try await session.save()   // .saved(changed: ["name"], key: 1)
        // README-PG-END
        #expect(outcome == .saved(changed: ["name"], key: RecordKey("id", 1)))
    }

    @Test func theReadmeShowsThisExample() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let region = source.components(separatedBy: "// README-PG-BEGIN\n")[1].components(separatedBy: "        // README-PG-END")[0]
        let code = region.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n")
        let readme = try String(contentsOf: URL(fileURLWithPath: packageRoot).appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + code + "```"), "README.md's PostgreSQL example differs from this test")
    }
}
