import FormStoreTestSupport
import Foundation
import Testing

/// `export` and `import` through the built binary: round trips in every
/// format, every row validated, bad rows reported by line, all or nothing.
@Suite struct ImportExportTests {
    /// The demo schema without its rows.
    static func emptyDemo() throws -> DemoDatabase {
        let schema = try DemoDatabase.demoSQL.components(separatedBy: "\n")
            .filter { !$0.hasPrefix("INSERT") && !$0.hasPrefix("    (") }.joined(separator: "\n")
        return try DemoDatabase(sql: schema)
    }

    @Test(arguments: ["ndjson", "csv", "json"])
    func anExportImportsBackIntoAnEmptyDatabase(format: String) throws {
        let source = try DemoDatabase()
        let target = try Self.emptyDemo()
        // (basic-info is left out: the demo rows hold moods and foods in lower case,
        // which its spec's choices turn into their labels, "happy" → "Happy".)
        for form in ["profile", "signup", "login", "order items"] {
            let exported = try source.run(["export", form, "--format", format, "--show-secure", "--raw-csv"])
            #expect(exported.code == 0, "\(exported)")
            let file = try target.file("\(form).\(format)", exported.output)
            let imported = try target.run(["import", form, file])
            #expect(imported.code == 0, "\(form): \(imported)")
            #expect(imported.errors.hasPrefix("Imported "))
            let again = try target.run(["export", form, "--format", format, "--show-secure", "--raw-csv"])
            #expect(again.output == exported.output, "\(form)")
            // Importing the same rows again changes nothing.
            let twice = try target.run(["import", form, "--format", format], stdin: exported.output)
            let rows = form == "login" ? 1 : 2
            #expect(twice.errors == "Imported \(rows) row(s): 0 new, 0 updated, \(rows) unchanged.\n", "\(twice)")
        }
        #expect(try target.query("SELECT * FROM \"order items\" ORDER BY 1, 2") == "1|1|Tea|2|3.5|open\n1|2|Cake|1|4.25|shipped\n")
    }

    @Test func importUpdatesRecordsWhoseKeyExists() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["import", "signup"], stdin: """
        {"id": 2, "age": 28}
        {"firstName": "Cy", "lastName": "Park", "email": "cy@example.com", "password": "pa55word", "age": "41"}

        """)
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Imported 2 row(s): 1 new, 1 updated, 0 unchanged.\n")
        #expect(try demo.query("SELECT id, firstName, age FROM signups ORDER BY id") == "1|Ann|34\n2|Bo|28\n3|Cy|41\n")
    }

    /// A column named `''` is in no form: the export says it leaves it out,
    /// rather than lose it silently for an import into a copy.
    @Test func anExportSaysItLeavesOutAColumnWithAnEmptyName() throws {
        let demo = try DemoDatabase(sql: #"""
            CREATE TABLE t (id INTEGER PRIMARY KEY, "" TEXT, v TEXT);
            INSERT INTO t VALUES (1, 'kept', 'v');
            CREATE TABLE u (id INTEGER PRIMARY KEY, v TEXT);
            """#)
        for extra in [[], ["--children"]] {
            let run = try demo.run(["export", "t"] + extra)
            #expect(run.code == 0 && run.output == #"{"id": 1, "v": "v"}"# + "\n", "\(run)")
            #expect(run.errors == "formstore: warning: t has a column named '' (an empty name), which no field can name: "
                    + "it is not exported\n")
        }
        #expect(try demo.run(["export", "u"]).errors.isEmpty)
    }

    @Test func badRowsAreReportedByLineAndNothingIsImported() throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let run = try demo.run(["import", "signup"], stdin: """
        {"firstName": "Cy", "lastName": "Park", "email": "cy@example.com", "password": "pa55word", "age": 41}
        {"firstName": "Di", "email": "not-an-address", "password": "pa55word", "age": "old"}

        {"firstName": "Ed", "email": "ed@example.com", "password": "pa55word", "age": 130, "shoe": 9}
        {"firstName": "Fay", "email": "fay@example.com"}

        """)
        #expect(run.code == 65)
        #expect(run.output.isEmpty)
        #expect(run.errors == """
        formstore: 3 row(s) failed validation; nothing was imported
          line 2: email: E-mail is not a valid e-mail address
          line 2: age: Age is not a number
          line 4: shoe: not a field of signup
          line 4: age: Age must be between 0 and 119
          line 5: password: Password is required

        """)
        #expect(try demo.dump() == before)
    }

    @Test func constraintFailuresAreBadRowsToo() throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let csv = "firstName,lastName,email,password,age\nCy,Park,cy@example.com,pa55word,41\n,Kim,dee@example.com,pa55word,20\n"
        let run = try demo.run(["import", "signup", "--format", "csv"], stdin: csv)
        #expect(run.code == 65)
        #expect(run.errors == """
        formstore: 1 row(s) failed validation; nothing was imported
          line 3: NOT NULL constraint failed: signups.firstName

        """)
        #expect(try demo.dump() == before)
    }

    @Test func malformedInputNamesTheLineAndImportsNothing() throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let ndjson = try demo.run(["import", "login"], stdin: "{\"email\": \"a@example.com\", \"password\": \"pa55word\"}\n{\"email\": \n")
        #expect(ndjson.code == 65)
        #expect(ndjson.errors.hasPrefix("formstore: line 2, column 11: "))
        #expect(ndjson.errors.hasSuffix("; nothing was imported\n"))
        let csv = try demo.run(["import", "login", "--format", "csv"], stdin: "email,password\n\"a@example.com,x\n")
        #expect(csv.code == 65)
        #expect(csv.errors == "formstore: line 2: unterminated quoted field; nothing was imported\n")
        let json = try demo.run(["import", "login", "--format", "json"], stdin: "{\"email\": \"a@example.com\"}")
        #expect(json.code == 65)
        #expect(try demo.dump() == before)
    }

    @Test func aDryRunValidatesEveryRowAndWritesNothing() throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let rows = "{\"email\": \"cy@example.com\", \"password\": \"pa55word\"}\n{\"id\": 1, \"email\": \"ann@example.org\"}\n"
        let run = try demo.run(["import", "login", "--dry-run"], stdin: rows)
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Would import 2 row(s): 1 new, 1 updated, 0 unchanged.\n")
        #expect(try demo.dump() == before)
        let bad = try demo.run(["import", "login", "--dry-run"], stdin: "{\"email\": \"nope\"}\n")
        #expect(bad.code == 65)
        #expect(try demo.dump() == before)
    }

    @Test func aMissingInputFileExits66() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["import", "login", demo.scratch.path + "/nope.csv"])
        #expect(run.code == 66)
        #expect(run.errors.hasPrefix("formstore: cannot open '\(demo.scratch.path)/nope.csv'"))
    }

    /// A new row's record starts from the values as they arrived (issue 14):
    /// what it leaves out still takes the field's default, a value that
    /// parses to another (an integer for a decimal) is stored as parsed, a
    /// computed column's value is not written, and a value that fails leaves
    /// the other fields' messages as they were.
    @Test func newRowsKeepDefaultsParsedValuesAndComputedColumns() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, status TEXT, n INTEGER, score REAL,
                                twice INTEGER GENERATED ALWAYS AS (n * 2));

            """)
        demo.formsDirectory = demo.scratch.path + "/forms"
        try demo.file("forms/items.json", """
            {"formstore": 1, "name": "items", "table": "items", "primaryKey": ["id"], "sections": [{"fields": [
              {"key": "id", "label": "ID", "kind": "integer", "readOnly": true},
              {"key": "name", "label": "Name", "kind": "text", "required": true},
              {"key": "status", "label": "Status", "kind": "choice", "choices": ["open", "closed"], "default": "open"},
              {"key": "n", "label": "N", "kind": "integer"},
              {"key": "score", "label": "Score", "kind": "decimal"},
              {"key": "twice", "label": "Twice", "kind": "integer", "readOnly": true}]}]}
            """)
        let run = try demo.run(["import", "items"], stdin: """
            {"id": 1, "name": "A", "n": 1}
            {"id": 2, "name": "B", "status": "closed", "n": 2, "score": 2, "twice": 99}
            {"id": 3, "name": "C", "status": null, "n": 3, "twice": 6}

            """)
        #expect(run.code == 0, "\(run)")
        #expect(try demo.query("SELECT id, name, quote(status), n, quote(score), twice FROM items ORDER BY id")
            == "1|A|'open'|1|NULL|2\n2|B|'closed'|2|2.0|4\n3|C|NULL|3|NULL|6\n")
        // An updated row's computed value is no input either: an export's is stale once n changes.
        let updated = try demo.run(["import", "items"], stdin: "{\"id\": 2, \"n\": 5, \"twice\": 4}\n")
        #expect(updated.code == 0, "\(updated)")
        #expect(try demo.query("SELECT n, twice FROM items WHERE id = 2") == "5|10\n")
        let before = try demo.dump()
        let bad = try demo.run(["import", "items"], stdin: "{\"id\": 4, \"status\": \"lost\", \"n\": \"x\"}\n")
        #expect(bad.code == 65)
        #expect(bad.errors.contains("line 1: name: Name is required"), "\(bad)")
        #expect(bad.errors.contains("line 1: n: N is not a number"), "\(bad)")
        #expect(try demo.dump() == before)
    }
}
