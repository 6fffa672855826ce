import FormStoreTestSupport
import Foundation
import Testing

/// `set` and `new --format json` print a refused save in the library's
/// `SaveOutcome` shape (docs/service.md), with the usual error and exit code.
@Suite struct JSONOutcomeTests {
    func outcome(_ run: BinaryRun) throws -> [String: Any] {
        let line = try #require(run.output.split(separator: "\n").last.map(String.init), "\(run)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(run)")
    }

    @Test func anInvalidSetPrintsItsErrorsByField() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["set", "signup", "1", "age=200", "email=", "--format", "json"])
        #expect(run.code == 65, "\(run)")
        #expect(run.errors.contains("age"))
        let json = try outcome(run)
        #expect(json["outcome"] as? String == "invalid")
        let errors = try #require(json["errors"] as? [[String: Any]])
        #expect(Set(errors.compactMap { $0["field"] as? String }) == ["age", "email"])
        #expect(errors.allSatisfy { $0["code"] is String && $0["message"] is String })
        #expect(try demo.query("SELECT age FROM signups WHERE id = 1") == "34\n")
    }

    @Test func anInvalidNewPrintsItsErrorsByField() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["new", "signup", "firstName=Cy", "--format", "json"])
        #expect(run.code == 65, "\(run)")
        let json = try outcome(run)
        #expect(json["outcome"] as? String == "invalid")
        let fields = (json["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
        #expect(fields.contains("email") && fields.contains("password"))
    }
}
