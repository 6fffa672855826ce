import FormStoreTestSupport
import Foundation
import Testing

/// A spec file that cannot be used breaks only its own form, and the README's
/// way of starting a spec (`form T --format json > forms/T.json`) works.
@Suite struct SpecFolderTests {
    static let schema = """
    CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER REFERENCES customers(id), total REAL);
    INSERT INTO customers VALUES (1, 'Ann', 'Kraków');
    INSERT INTO orders VALUES (1, 1, 9.5);
    """

    @Test func theReadmeWayOfStartingASpecWorks() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let binary = try formstoreBinary()
        try FileManager.default.createDirectory(atPath: demo.scratch.path + "/forms", withIntermediateDirectories: true)
        // The shell creates forms/customers.json, empty, before formstore runs and reads ./forms.
        let shell = try runProcess("/bin/sh", ["-c", "cd '\(demo.scratch.path)' && '\(binary)' --db demo.sqlite "
            + "form customers --format json > forms/customers.json"])
        #expect(shell.code == 0, "\(shell)")
        #expect(shell.errors.isEmpty, "\(shell)")
        let spec = try String(contentsOfFile: demo.scratch.path + "/forms/customers.json", encoding: .utf8)
        #expect(spec.contains("\"name\": \"customers\""))
        demo.formsDirectory = demo.scratch.path + "/forms"
        let list = try demo.run(["list", "customers"])
        #expect(list.code == 0, "\(list)")
        #expect(list.output.contains("Kraków"))
        #expect(list.errors.isEmpty)
    }

    /// A spec that names no key takes its table's: export writes it, and an
    /// unchanged export imports back as unchanged, not as new copies.
    @Test func aSpecWithoutAKeyExportsAndImportsByItsTablesKey() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        demo.formsDirectory = demo.scratch.path + "/forms"
        try demo.file("forms/sale.json", #"""
            {"formstore": 1, "name": "sale", "table": "orders", "editsOtherTable": true,
             "sections": [{"fields": [{"key": "total", "kind": "decimal"}]}]}
            """#)
        let exported = try demo.run(["export", "sale"])
        #expect(exported.output == "{\"id\": 1, \"total\": 9.5}\n", "\(exported)")
        let before = try demo.dump()
        let imported = try demo.run(["import", "sale"], stdin: exported.output)
        #expect(imported.code == 0 && imported.errors.contains("1 unchanged"), "\(imported)")
        #expect(try demo.dump() == before)
        let schema = try demo.run(["form", "sale", "--format", "json-schema"])
        #expect(schema.output.contains("\"id\": {"), "\(schema)")
    }

    /// A spec may leave its key's field editable: a stored record's key is
    /// still not changed by a save, and saying so names the field (the update
    /// ran, and the row was then not found by its old key: "a trigger changed its key?").
    @Test func aStoredRecordsKeyIsNotChangedThroughASpec() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        demo.formsDirectory = demo.scratch.path + "/forms"
        try demo.file("forms/buyer.json", #"""
            {"formstore": 1, "name": "buyer", "table": "customers", "editsOtherTable": true,
             "sections": [{"fields": [{"key": "id", "kind": "integer"}, {"key": "name"}]}]}
            """#)
        let before = try demo.dump()
        let run = try demo.run(["set", "buyer", "1", "id=2"])
        #expect(run.code == 65 && run.errors == "formstore: id (id) is part of the record's key, which a save does not change\n",
                "\(run)")
        #expect(try demo.dump() == before)
        #expect(try demo.run(["new", "buyer", "id=5", "name=Bo"]).code == 0)
    }

    @Test func aBrokenSpecBreaksOnlyItsOwnForm() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        demo.formsDirectory = demo.scratch.path + "/forms"
        try demo.file("forms/orders.json", #"{"formstore": 1, "name": "orders", "sections": 3}"#)
        try demo.file("forms/empty.json", "")
        let before = try demo.dump()
        let warning = "formstore: warning: \(demo.formsDirectory)/orders.json: $.sections: "
            + "expected an array, found a number (the file is skipped)\n"

        let other = try demo.run(["list", "customers"])
        #expect(other.code == 0, "\(other)")
        #expect(other.output.contains("Kraków"))
        #expect(other.errors == warning)

        let forms = try demo.run(["forms"])
        #expect(forms.code == 0, "\(forms)")
        #expect(forms.output.contains("customers"))
        #expect(forms.errors == warning)
        // The table the broken spec claims is listed as that spec's, not as a form inferred that works.
        let listed = try demo.run(["forms", "--format", "json"])
        #expect(listed.output.contains(#""origin": "\#(demo.formsDirectory)/orders.json, broken: its commands fail""#), "\(listed)")

        let own = try demo.run(["set", "orders", "1", "total=10"])
        #expect(own.code == 65)
        #expect(own.errors == "formstore: \(demo.formsDirectory)/orders.json: $.sections: expected an array, found a number\n")
        #expect(try demo.dump() == before)
    }

    @Test func aFormDefinedTwiceBreaksOnlyThatForm() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        demo.formsDirectory = demo.scratch.path + "/forms"
        let spec = #"{"formstore": 1, "name": "people", "table": "customers", "editsOtherTable": true, "sections": [{"fields": [{"key": "name"}]}]}"#
        try demo.file("forms/a.json", spec)
        try demo.file("forms/b.json", spec)
        let own = try demo.run(["list", "people"])
        #expect(own.code == 65)
        #expect(own.errors.contains("b.json: $.name: form 'people' is already defined by"))
        let other = try demo.run(["show", "orders", "1"])
        #expect(other.code == 0, "\(other)")
        #expect(other.errors.hasPrefix("formstore: warning: \(demo.formsDirectory)/b.json"))
    }
}
