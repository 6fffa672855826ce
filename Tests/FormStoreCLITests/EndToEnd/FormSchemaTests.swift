import FormStoreTestSupport
import Foundation
import Testing

/// What `formstore form NAME --format json-schema|sql` says of a form holds for
/// the records the command itself writes: checked by a validator from PyPI
/// (`jsonschema`, which .ci/run installs) and by SQLite.
@Suite struct FormSchemaTests {
    /// The seed specs, by name (Fixtures/forms/NAME.json).
    static var fixtureNames: [String] {
        get throws {
            try FileManager.default.contentsOfDirectory(atPath: DemoDatabase.fixtureForms)
                .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        }
    }

    /// Validates every record of `records` (a JSON array) against `schema`;
    /// exits 0 when all fit, 1 naming each that does not, 2 without the validator.
    static let validator = #"""
        import json, sys
        try:
            from jsonschema import Draft202012Validator, FormatChecker
        except ImportError:
            print("python3's jsonschema is missing: pip install jsonschema (.ci/run does)")
            sys.exit(2)
        schema = json.load(open(sys.argv[1]))
        records = json.load(open(sys.argv[2]))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema, format_checker=FormatChecker())
        failures = [f"record {i}: {e.json_path}: {e.message}" for i, r in enumerate(records) for e in validator.iter_errors(r)]
        print("\n".join(failures))
        sys.exit(1 if failures else 0)
        """#

    /// What a database made by someone else holds, exported as it is, fits
    /// its inferred form's schema: numbers, text and bytes in a column of no
    /// declared type, the words a bool column may hold, empty and numeric
    /// dates. A value the form could not take still does not fit.
    /// A form with groups (`--children`) describes each group as an array
    /// of row objects, so a record with its rows, as `export --children` and
    /// the API give it, fits; the schema refused every such record as having
    /// a property it did not name. A row with a cell no field holds does not fit.
    @Test func recordsWithTheirRowsFitTheSchema() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE parent (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id),
                                item TEXT, amount NUMERIC, extra);
            INSERT INTO parent VALUES (1, 'P1'), (2, 'P2');
            INSERT INTO child VALUES (1, 1, 'i1', 1.5, 'any'), (2, 1, NULL, 2, 7), (3, 1, 'i3', NULL, x'00');
            """)
        let schema = try demo.run(["form", "parent", "--children", "--format", "json-schema"])
        #expect(schema.code == 0 && schema.output.contains(#""type": "array""#), "\(schema)")
        let export = try demo.run(["export", "parent", "--children", "--format", "json"])
        #expect(export.output.contains(#""child": ["#), "\(export)")
        let script = try demo.file("validate.py", Self.validator)
        let schemaFile = try demo.file("schema.json", schema.output)
        let run = try runProcess("/usr/bin/env", ["python3", script, schemaFile, try demo.file("records.json", export.output)])
        #expect(run.code == 0, "\(run)")
        let wrong = try demo.file("wrong.json", #"[{"id": 3, "title": "x", "child": [{"id": 9, "nosuch": 1}]}, {"id": 4, "title": "y", "child": {"id": 1}}]"#)
        let refused = try runProcess("/usr/bin/env", ["python3", script, schemaFile, wrong])
        #expect(refused.code == 1 && refused.output.contains("record 0: $.child[0]") && refused.output.contains("record 1: $.child"),
                "\(refused)")
    }

    @Test func storedFormsOfAnotherApplicationFitTheSchema() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE kept (id INTEGER PRIMARY KEY, anything, active BOOLEAN, born DATE, seen DATETIME, paid DATETIME,
                               qty INTEGER, price REAL);
            INSERT INTO kept VALUES (1, 5, 'yes', '', 1700000000, 2460000.5, '', ''),
                                    (2, 'text', 'F', '2024-01-02', 1700000001.5, NULL, 3, 1e400),
                                    (3, 2.5, 2, NULL, '2024-01-02 10:00:00', '2024-01-02T10:00Z', NULL, -1e400),
                                    (4, x'00FF', 'off', '2024-01-03', NULL, NULL, 2.5, 2.5),
                                    (5, NULL, -1, NULL, NULL, NULL, -7, NULL);

            """)
        let schema = try demo.run(["form", "kept", "--format", "json-schema"])
        #expect(schema.code == 0, "\(schema)")
        let export = try demo.run(["export", "kept", "--format", "json"])
        #expect(export.output.contains(#""anything": {"$base64": "AP8="}"#), "\(export)")
        let script = try demo.file("validate.py", Self.validator)
        let schemaFile = try demo.file("schema.json", schema.output)
        let run = try runProcess("/usr/bin/env", ["python3", script, schemaFile, try demo.file("records.json", export.output)])
        #expect(run.code == 0, "\(run)")
        let wrong = try demo.file("wrong.json", #"[{"active": "maybe"}, {"active": 2.5}, {"born": "soon"}, {"born": true}, {"qty": "3"}, {"price": "inf"}]"#)
        let refused = try runProcess("/usr/bin/env", ["python3", script, schemaFile, wrong])
        #expect(refused.code == 1)
        #expect(refused.output.split(separator: "\n").map { $0.prefix(17) }
                    == ["record 0: $.activ", "record 1: $.activ", "record 2: $.born:", "record 3: $.born:",
                        "record 4: $.qty: ", "record 5: $.price"], "\(refused)")
        // As PostgreSQL exports a numeric (its exact digits, as text) and a timestamptz (`+00`).
        let postgres = try demo.file("postgres.json", #"[{"price": "12.50"}, {"seen": "2024-01-01 10:00:00+00"}, {"seen": "2024-01-01 10:00:00+05:30"}]"#)
        let fits = try runProcess("/usr/bin/env", ["python3", script, schemaFile, postgres])
        #expect(fits.code == 0, "\(fits)")
    }

    @Test(arguments: try fixtureNames)
    func everyExportedRecordFitsTheFormsJSONSchema(name: String) throws {
        let demo = try DemoDatabase()
        // NULLs in nullable columns, as other applications leave them.
        try demo.query("UPDATE profiles SET birthdate = NULL, gender = NULL WHERE id = 1")
        try demo.query("UPDATE signups SET age = NULL WHERE id = 1")
        let schema = try demo.run(["form", name, "--format", "json-schema"])
        #expect(schema.code == 0, "\(schema)")
        let export = try demo.run(["export", name, "--format", "json"])
        #expect(export.code == 0, "\(export)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(export.output.utf8)) as? [Any])
        #expect(!records.isEmpty, "the demo has rows for \(name)")
        let script = try demo.file("validate.py", Self.validator)
        let schemaFile = try demo.file("schema.json", schema.output)
        let recordsFile = try demo.file("records.json", export.output)
        let run = try runProcess("/usr/bin/env", ["python3", script, schemaFile, recordsFile])
        #expect(run.code == 0, "\(name): \(run)")
    }

    /// A BLOB column's bytes, exported as `{"$base64": "…"}`, fit the
    /// inferred form's schema, as NULL and hex text do.
    @Test func exportedBytesFitTheSchema() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE files (id INTEGER PRIMARY KEY, name TEXT, body BLOB);
            INSERT INTO files VALUES (1, 'a', x'00FF10'), (2, 'b', NULL), (3, 'c', x'');
            """)
        let schema = try demo.run(["form", "files", "--format", "json-schema"])
        let export = try demo.run(["export", "files", "--format", "json"])
        #expect(export.output.contains(#"{"$base64": "AP8Q"}"#), "\(export)")
        let script = try demo.file("validate.py", Self.validator)
        let run = try runProcess("/usr/bin/env", ["python3", script, try demo.file("schema.json", schema.output),
                                                  try demo.file("records.json", export.output)])
        #expect(run.code == 0, "\(run)")
        let wrong = try demo.file("wrong.json", #"[{"id": 4, "body": {"$base64": "AA==", "extra": 1}}]"#)
        #expect(try runProcess("/usr/bin/env", ["python3", script, try demo.file("schema2.json", schema.output), wrong]).code == 1)
    }

    @Test(arguments: try fixtureNames)
    func theGeneratedTableHoldsEveryExportedRecord(name: String) throws {
        let demo = try DemoDatabase()
        let sql = try demo.run(["form", name, "--format", "sql"])
        #expect(sql.code == 0, "\(sql)")
        #expect(sql.output.hasPrefix("CREATE TABLE "))
        let fresh = demo.scratch.path + "/fresh.sqlite"
        try sqlite3(fresh, input: sql.output)
        // The demo's rows, copied by SQLite itself: the types, NOT NULLs and CHECKs take them.
        let table = try #require(sql.output.split(separator: "\"").dropFirst().first.map(String.init))
        let columns = try sqlite3(fresh, ["SELECT group_concat('\"' || name || '\"', ', ') FROM pragma_table_info('\(table)')"])
            .trimmingCharacters(in: .newlines)
        try sqlite3(fresh, input: """
            ATTACH '\(demo.path)' AS demo;
            INSERT INTO main."\(table)" (\(columns)) SELECT \(columns) FROM demo."\(table)";
            """)
        let export = try demo.run(["export", name, "--format", "ndjson"])
        let again = try runBinary(["--db", fresh, "--forms", demo.formsDirectory, "export", name, "--format", "ndjson"],
                                  environment: ["XDG_STATE_HOME": demo.stateDirectory])
        #expect(again.output == export.output, "\(name): the generated table gives back what was exported")
    }

    @Test func theGeneratedTableSaysWhatTheFormRequires() throws {
        let demo = try DemoDatabase()
        let sql = try demo.run(["form", "registration", "--format", "sql"]).output
        #expect(sql.contains(#""id" INTEGER PRIMARY KEY"#))
        #expect(sql.contains(#""username" TEXT NOT NULL"#))
        #expect(sql.contains(#""acceptTerms" INTEGER NOT NULL CHECK ("acceptTerms" IN (0, 1))"#))
        #expect(sql.contains(#"CHECK ("country" IN ('usa', 'de', "#))
        #expect(sql.contains(#"DEFAULT 'usa'"#))
    }

    /// A table's inferred form prints the table's own statement: what no
    /// field says (a foreign key, a generated column, STRICT, WITHOUT ROWID)
    /// is kept, where the form's idea of the table dropped it.
    @Test func aTablesInferredFormPrintsTheTablesOwnStatement() throws {
        let statements = [
            "CREATE TABLE emp (id INTEGER PRIMARY KEY, boss INTEGER REFERENCES emp(id), salary REAL, "
                + "yearly REAL GENERATED ALWAYS AS (salary * 12) STORED)",
            "CREATE TABLE s (id INTEGER PRIMARY KEY, a ANY, n INTEGER NOT NULL DEFAULT 0) STRICT",
            "CREATE TABLE \"my table\" (\"col one\" TEXT PRIMARY KEY, x TEXT) WITHOUT ROWID",
            "CREATE TABLE r (x TEXT)",
            "CREATE VIEW v AS SELECT id, salary FROM emp",
        ]
        let demo = try DemoDatabase(sql: statements.joined(separator: ";\n") + ";")
        for (name, statement) in zip(["emp", "s", "my table", "r", "v"], statements) {
            let sql = try demo.run(["form", name, "--format", "sql"])
            #expect(sql.code == 0, "\(sql)")
            #expect(sql.output == statement + ";\n")
        }
    }
}
