import FormStoreTestSupport
import Foundation
import Testing

/// `--children`: a record shown with its child rows, through the built binary,
/// on databases the `sqlite3` shell made.
@Suite struct ChildRowsCommandTests {
    static let schema = InvoiceSchema.sqlite + """
        CREATE TABLE employee (id INTEGER PRIMARY KEY, name TEXT NOT NULL, manager_id INTEGER REFERENCES employee(id));
        INSERT INTO employee VALUES (1, 'Boss', NULL), (2, 'Ann', 1), (3, 'Bo', 1);
        """

    @Test func anInferredFormBringsInTheTablesReferringToIt() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let text = try demo.run(["show", "invoice", "1", "--children"])
        #expect(text.code == 0, "\(text)")
        #expect(text.output == """
            id:       1
            customer: Ann
            total:    5.5
            invoice_line:
              id  item  amount
              10  Tea      2.5
              11  Cake     3.5

            """)
        let json = try demo.run(["show", "invoice", "1", "--children", "--format", "json"])
        #expect(json.output == """
            {
              "id": 1,
              "customer": "Ann",
              "total": 5.5,
              "invoice_line": [
                {"id": 10, "item": "Tea", "amount": 2.5},
                {"id": 11, "item": "Cake", "amount": 3.5}
              ]
            }

            """)
        let none = try demo.run(["show", "invoice", "2", "--children", "--format", "json"])
        #expect(none.output.contains("\"invoice_line\": []"))
    }

    @Test func anInferredFormsGroupsBecomeASpec() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let described = try demo.run(["form", "invoice", "--children"])
        #expect(described.output.contains("invoice_line\n  rows of invoice_line (invoice_line), referring through invoice_id:\n"))
        let spec = try demo.run(["form", "invoice", "--children", "--format", "json"])
        #expect(spec.code == 0, "\(spec)")
        let forms = demo.scratch.path + "/forms"
        try FileManager.default.createDirectory(atPath: forms, withIntermediateDirectories: true)
        try spec.output.write(toFile: forms + "/invoice.json", atomically: true, encoding: .utf8)
        demo.formsDirectory = forms
        let shown = try demo.run(["show", "invoice", "1", "--children", "--format", "json"])
        #expect(shown.code == 0, "\(shown)")
        #expect(shown.output.contains("{\"id\": 11, \"item\": \"Cake\", \"amount\": 3.5}"))
    }

    @Test func withoutChildrenTheRecordStandsAlone() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let plain = try demo.run(["show", "invoice", "1", "--format", "json"])
        #expect(!plain.output.contains("invoice_line"))
    }

    @Test func aSelfReferenceShowsTheReports() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let shown = try demo.run(["show", "employee", "1", "--children"])
        #expect(shown.code == 0, "\(shown)")
        #expect(shown.output.hasSuffix("employee:\n  id  name\n   2  Ann\n   3  Bo\n"))
    }
}
