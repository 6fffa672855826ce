import FormCore
import FormStoreTestSupport
import Foundation
import FormStorage
import Testing

/// The README's JSON-door example, compiled and run here. The test fails when
/// the README's block and the lines between the markers below differ.
@Suite struct ReadmeJSONDoorTests {
    // README-JSON-BEGIN
    func handle(_ body: Data, form: Form, key: RecordKey, store: FormStore) throws -> (status: Int, json: Data) {
        let session = try FormSession.open(form, key: key, backend: store)
        do {
            try session.apply(json: body)   // {"email": "ann@example.org", "age": 41}
        } catch {
            return (422, try JSONEncoder().encode(error))   // {"errors": [{"field": "agee", "code": "unknownField", ...}]}
        }
        let outcome = try session.save()
        return (outcome.isSuccess ? 200 : 422, try JSONEncoder().encode(outcome))   // {"outcome": "saved", ...}
    }
    // README-JSON-END

    @Test func theReadmeExampleIsThisCodeAndRuns() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let region = source.components(separatedBy: "// README-JSON-BEGIN\n")[1].components(separatedBy: "    // README-JSON-END")[0]
        let code = region.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }.joined(separator: "\n")
        let readme = try String(contentsOf: URL(fileURLWithPath: packageRoot).appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + code + "```"), "README.md's JSON-door example differs from ReadmeJSONDoorTests")

        let directory = try TemporaryDirectory()
        let store = try FormStore(path: directory.path("readme.sqlite"))
        try store.database.write { db in
            try db.executeScript("""
                CREATE TABLE signups (id INTEGER PRIMARY KEY, email TEXT NOT NULL, age INTEGER);
                INSERT INTO signups (email, age) VALUES ('ann@example.com', 40);
                """)
        }
        let form = Form(name: "signup", sections: [Section(fields: [
            Field(key: "email", kind: .email).required(), Field(key: "age", kind: .integer).range(0...119),
        ])]).table("signups")
        let key = RecordKey("id", 1)
        func json(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

        let saved = try handle(Data(#"{"email": "ann@example.org", "age": 41}"#.utf8), form: form, key: key, store: store)
        #expect(saved.status == 200)
        #expect(json(saved.json).contains(#""outcome":"saved""#))
        let unknown = try handle(Data(#"{"agee": 41}"#.utf8), form: form, key: key, store: store)
        #expect(unknown.status == 422)
        #expect(json(unknown.json).contains(#""code":"unknownField""#))
        let invalid = try handle(Data(#"{"age": 200}"#.utf8), form: form, key: key, store: store)
        #expect(invalid.status == 422)
        #expect(json(invalid.json).contains(#""outcome":"invalid""#))
        #expect(try store.load(form, key: key)?.values["age"] == .int(41))
    }
}
