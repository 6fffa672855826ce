import FormCore
import FormStoreTestSupport
import Foundation
import FormStorage
import Testing

/// The README's Swift example, compiled and run here. The test fails when the
/// README's ```swift block and the lines between the markers below differ.
@Suite struct ReadmeExampleTests {
    /// Runs the example; what it prints is collected instead of printed.
    func readmeExample() throws -> [String] {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // README-BEGIN
        struct Signup: Codable {
            var firstName = ""
            var email = ""
            var age: Int?
        }

        let form = Form("signup", title: "Sign Up", for: Signup.self) {
            Section {
                Field("First name", \Signup.firstName, kind: .name).required()
                Field("E-mail", \Signup.email, kind: .email).required().email()
                Field("Age", \Signup.age, kind: .integer).range(0...119)
            }
        }.table("signups")

        let store = try FormStore(path: NSTemporaryDirectory() + "formstore-readme.sqlite")
        try store.database.write { db in
            try db.execute("CREATE TABLE IF NOT EXISTS signups (id INTEGER PRIMARY KEY, firstName TEXT, email TEXT, age INTEGER)")
        }

        let session = FormSession.new(form, backend: store, drafts: store)
        try session.set("firstName", input: "  Ann ")     // trimmed
        try session.set("email", input: "ANN@EXAMPLE.COM") // lower-cased
        try session.set("age", input: "forty")            // kept as typed, with its error
        print(session.errors("age").map(\.message))        // ["Age is not a number"]
        try session.set("age", input: "40")

        switch try session.save() {
        case .saved(let changed, let key): print("saved", changed, "as id", key)
        case .invalid(let errors): print(errors)
        default: break
        }
        // README-END
        return printed
    }

    @Test func theReadmeExampleIsThisCodeAndRuns() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let region = source.components(separatedBy: "// README-BEGIN\n")[1].components(separatedBy: "        // README-END")[0]
        let code = region.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n")
        // The imports the example needs (NSTemporaryDirectory is Foundation's), as this file has them.
        let expected = "```swift\nimport Foundation\nimport FormCore\nimport FormStorage\n\n" + code + "```"
        let readme = try String(contentsOf: URL(fileURLWithPath: packageRoot).appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(expected), "README.md's Swift example differs from ReadmeExampleTests")
        // This file compiles the example with the README's imports and the tests' own, no others: a
        // module imported here alone (Foundation once) let the example compile here and not as written.
        let imports = Set(source.split(separator: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst(7)) })
        #expect(imports == ["Foundation", "FormCore", "FormStorage", "FormStoreTestSupport", "Testing"])

        try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "formstore-readme.sqlite")
        #expect(try readmeExample() == [#"["Age is not a number"]"#, #"saved ["firstName", "email", "age"] as id 1"#])
    }
}
