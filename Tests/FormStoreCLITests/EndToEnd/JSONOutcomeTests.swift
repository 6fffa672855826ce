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

    /// A refusal from past the form (no such record, the schema's CHECK) is
    /// an outcome too; a usage error is not.
    @Test func aRecordNotFoundOrRefusedByTheSchemaIsAnOutcome() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE p (id INTEGER PRIMARY KEY);
            CREATE TABLE c (id INTEGER PRIMARY KEY, qty INTEGER CHECK (qty > 0), p INTEGER REFERENCES p(id));
            INSERT INTO c VALUES (1, 1, NULL);

            """)
        let missing = try db.run(["set", "c", "99", "qty=1", "--format", "json"])
        #expect(missing.code == 66)
        #expect(missing.output == #"{"outcome":"notFound"}"# + "\n")
        let checked = try db.run(["set", "c", "1", "qty=-1", "--format", "json"])
        #expect(checked.code == 65)
        #expect(checked.output == #"{"errors":[{"code":"refused","field":null,"message":"CHECK constraint failed: qty > 0"}],"outcome":"invalid"}"# + "\n")
        let dangling = try db.run(["set", "c", "1", "p=99", "--format", "json"])
        #expect(dangling.code == 65)
        #expect(dangling.output == #"{"errors":[{"code":"reference","field":"p","message":"no row of 'p' has id = 99"}],"outcome":"invalid"}"# + "\n")
        let made = try db.run(["new", "c", "qty=0", "--format", "json"])
        #expect(made.code == 65)
        #expect(try outcome(made)["outcome"] as? String == "invalid")
        let usage = try db.run(["set", "c", "1", "nope=1", "--format", "json"])
        #expect(usage.code == 64)
        #expect(usage.output.isEmpty)
    }
}
