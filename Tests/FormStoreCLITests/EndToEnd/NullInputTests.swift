import FormStoreTestSupport
import Foundation
import Testing

/// NULL and empty text are two values a person can type and see apart: on
/// the command line (`FIELD:=null`, `FIELD:=""`), at the prompts (`\N`, `""`)
/// and in the editor document (`null`, `""`); an empty input on a field
/// holding nothing is no change, and clearing stores NULL where the column
/// allows it. The database is an application's, built by the `sqlite3` shell.
@Suite struct NullInputTests {
    static let schema = """
    CREATE TABLE contacts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        company TEXT,
        nick TEXT DEFAULT '',
        qty INTEGER,
        active BOOLEAN
    );
    INSERT INTO contacts VALUES (1, 'Ann', NULL, '', NULL, NULL), (2, 'Bob', 'Acme', 'Bobby', 5, 1);
    """

    /// `quote()` of each column: NULL and '' are told apart.
    static func row(_ demo: DemoDatabase, _ id: Int) throws -> String {
        try demo.query("SELECT quote(name), quote(company), quote(nick), quote(qty), quote(active) FROM contacts WHERE id = \(id)")
    }

    @Test func anEmptyInputOnAFieldHoldingNothingIsNoChange() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        let run = try demo.run(["set", "contacts", "1", "company=", "nick=", "qty="])
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "No changes.\n")
        #expect(run.output.isEmpty)
        #expect(try demo.dump() == before)
    }

    @Test func clearingStoresNullWhereTheColumnAllowsIt() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let run = try demo.run(["set", "contacts", "2", "company=", "nick=", "qty="])
        #expect(run.code == 0, "\(run)")
        // company is nullable: NULL; nick defaults to '': empty text; qty is a number: NULL.
        #expect(try Self.row(demo, 2) == "'Bob'|NULL|''|NULL|1\n")
    }

    @Test func colonEqualsTakesNullEmptyTextAndJSONValues() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let set = try demo.run(["set", "contacts", "2", "company:=null", "nick:=\"\"", "qty:=3", "active:=false"])
        #expect(set.code == 0, "\(set)")
        #expect(try Self.row(demo, 2) == "'Bob'|NULL|''|3|0\n")
        let text = try demo.run(["set", "contacts", "1", "company:=\"null\"", "name:=\"Ann B\""])
        #expect(text.code == 0, "\(text)")
        #expect(try Self.row(demo, 1) == "'Ann B'|'null'|''|NULL|NULL\n")
        let created = try demo.run(["new", "contacts", "name=Cy", "company:=null", "nick:=\"\"", "qty:=12"])
        #expect(created.code == 0, "\(created)")
        #expect(try Self.row(demo, 3) == "'Cy'|NULL|''|12|NULL\n")
    }

    @Test func newWithJSONKeepsNullAndEmptyTextApart() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let run = try demo.run(["new", "contacts", "--json"],
                               stdin: #"{"id": 7, "name": "Di", "company": null, "nick": "", "qty": 2}"#)
        #expect(run.code == 0, "\(run)")
        #expect(try Self.row(demo, 7) == "'Di'|NULL|''|2|NULL\n")
    }

    /// `show`, `list` and the prompts show NULL as nothing and empty text as
    /// `""`, as it is typed: both were blank.
    @Test func nullAndEmptyTextAreShownApart() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        #expect(try demo.run(["show", "contacts", "1"]).output.contains("company:\nnick:    \"\"\n"))
        #expect(try demo.run(["list", "contacts"]).output.contains(" 1  Ann            \"\""))
        let asked = try demo.run(["edit", "contacts", "1", "--plain"], stdin: "\n\n\n\n\n")
        #expect(asked.errors.contains("company: \nnick [\"\"]: \n"), "\(asked)")
    }

    /// `""` given as JSON is empty text in any column, through every door
    /// alike, as import kept it: `set --json` stored NULL in a number
    /// column (or said "No changes" over NULL), and `qty:=""` was refused.
    @Test func emptyTextGivenAsJSONIsEmptyTextInAnyColumn() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE p (id INTEGER PRIMARY KEY, qty INTEGER, r REAL, b BLOB, d DATE);
            INSERT INTO p VALUES (1, 5, 1.0, x'00ff', '2024-01-01'), (2, NULL, NULL, NULL, NULL);
            """)
        let json = try demo.run(["set", "p", "1", "--json"], stdin: #"{"qty": "", "r": "", "b": "", "d": ""}"#)
        #expect(json.code == 0, "\(json)")
        let overNull = try demo.run(["set", "p", "2", "--json"], stdin: #"{"qty": ""}"#)
        #expect(overNull.code == 0 && overNull.output.contains("(null)  (empty)"), "\(overNull)")
        #expect(try demo.run(["set", "p", "2", #"r:="""#, #"b:="""#, #"d:="""#]).code == 0)
        #expect(try demo.run(["new", "p", "--json"], stdin: #"{"id": 3, "qty": "", "r": "", "b": "", "d": ""}"#).code == 0)
        let imported = try demo.run(["import", "p", "--format", "ndjson"], stdin: #"{"id": 4, "qty": "", "r": "", "b": "", "d": ""}"#)
        #expect(imported.code == 0, "\(imported)")
        #expect(try demo.query("SELECT quote(qty), quote(r), quote(b), quote(d) FROM p ORDER BY id")
                == String(repeating: "''|''|''|''\n", count: 4))
    }

    /// A new record's field starts at its column's DEFAULT: given null, it
    /// is stored NULL where the column takes it (the person cleared the
    /// default); left alone, or on a NOT NULL column, the default stays.
    @Test func newWithNullOverADefaultStoresNull() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE tasks (id INTEGER PRIMARY KEY, status TEXT DEFAULT 'open', size INTEGER DEFAULT 5,
                                nick TEXT DEFAULT '', kind TEXT NOT NULL DEFAULT 'todo', note TEXT);
            """)
        let given = try demo.run(["new", "tasks", "status:=null", "size:=null", "nick:=null", "kind:=null", "note:=null"])
        #expect(given.code == 0, "\(given)")
        let cleared = try demo.run(["new", "tasks", "status=", "size=", "nick=", "note=x"])
        #expect(cleared.code == 0, "\(cleared)")
        let untouched = try demo.run(["new", "tasks", "note=y"])
        #expect(untouched.code == 0, "\(untouched)")
        #expect(try demo.query("SELECT quote(status), quote(size), quote(nick), quote(kind), quote(note) FROM tasks ORDER BY id") == """
            NULL|NULL|NULL|'todo'|NULL
            NULL|NULL|''|'todo'|'x'
            'open'|5|''|'todo'|'y'

            """)
    }

    @Test func anUnknownFieldIsAUsageErrorWithDidYouMean() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        let run = try demo.run(["set", "contacts", "1", "compnay=Acme"])
        #expect(run.code == 64)
        #expect(run.errors == """
            Error: form contacts has no field 'compnay'. Did you mean 'company'?
            Usage: formstore set <form> <key> [<field=value> ...] [--json] [--children] [--format <format>]  (see 'formstore set --help')

            """)
        #expect(try demo.dump() == before)
    }

    @Test func promptsTakeBackslashNAndQuotedEmptyText() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        // name: keep; company: \N (Acme to NULL); nick: "" (Bobby to empty text);
        // qty: a space clears it; active: keep; then save.
        let run = try demo.run(["edit", "contacts", "2"], stdin: "\n\\N\n\"\"\n \n\ny\n")
        #expect(run.code == 0, "\(run)")
        #expect(run.errors.contains(#"\N is no value (NULL), "" is empty text; \n is a line break"#))
        // The summary tells the two apart, as `set` prints them.
        #expect(run.errors.contains("  company: Acme → (null)\n  nick: Bobby → (empty)\n"), "\(run)")
        #expect(try Self.row(demo, 2) == "'Bob'|NULL|''|NULL|1\n")
    }

    /// A space at a prompt clears a text field, though an inferred form keeps
    /// white space: on a field holding nothing it is no change, on one
    /// holding text it clears it (NULL where the column allows it), never ' '.
    @Test func aSpaceAtAPromptClearsATextField() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        // name: keep; company (NULL): a space; nick (''): a space; the rest kept.
        let none = try demo.run(["edit", "contacts", "1"], stdin: "\n \n \n\n\ny\n")
        #expect(none.code == 0 && none.errors.contains("No changes"), "\(none)")
        #expect(try demo.dump() == before)
        let cleared = try demo.run(["edit", "contacts", "2"], stdin: "\n \n\n\n\ny\n")
        #expect(cleared.code == 0, "\(cleared)")
        #expect(try Self.row(demo, 2) == "'Bob'|NULL|'Bobby'|5|1\n")
    }

    @Test func editorDocumentWritesNullAndEmptyTextApart() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        try demo.query("UPDATE contacts SET company = 'Acme' WHERE id = 1")
        let editor = try demo.file("editor.sh", """
            cp "$1" "\(demo.scratch.path)/shown.txt"
            sed -i 's/^company: Acme$/company: null/; s/^qty: *$/qty: 7/' "$1"
            """)
        let run = try demo.run(["edit", "contacts", "1", "--editor"], environment: ["EDITOR": "/bin/sh '\(editor)'"])
        #expect(run.code == 0, "\(run)")
        let shown = try String(contentsOfFile: demo.scratch.path + "/shown.txt", encoding: .utf8)
        #expect(shown.contains("\nnick: \"\"\n"))       // empty text
        #expect(shown.contains("\nactive: \n"))          // NULL
        #expect(try Self.row(demo, 1) == "'Ann'|NULL|''|7|NULL\n")
    }

    @Test func exportedRowsFitTheFormsJSONSchema() throws {
        let demo = try DemoDatabase(sql: Self.schema + """
            CREATE TABLE tags (label TEXT, colour TEXT CHECK (colour IN ('red', 'blue')));
            INSERT INTO tags VALUES ('a', NULL), (NULL, 'red');
            """)
        for table in ["contacts", "tags"] {
            let schemaRun = try demo.run(["form", table, "--format", "json-schema"])
            let schema = try #require(try JSONSerialization.jsonObject(with: Data(schemaRun.output.utf8)) as? [String: Any])
            let properties = try #require(schema["properties"] as? [String: [String: Any]])
            let export = try demo.run(["export", table, "--format", "json"])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(export.output.utf8)) as? [[String: Any]])
            #expect(!rows.isEmpty)
            for row in rows {
                for (key, value) in row {
                    let property = try #require(properties[key], "\(table).\(key) is not in the schema")
                    #expect(Self.fits(value, property), "\(table).\(key): \(value) does not fit \(property)")
                }
            }
        }
    }

    /// The `type` and `enum` of a JSON Schema property, checked as a validator would.
    static func fits(_ value: Any, _ property: [String: Any]) -> Bool {
        if let allowed = property["enum"] as? [Any] {
            return allowed.contains { ($0 as? NSObject)?.isEqual(value as? NSObject) == true }
        }
        let types = (property["type"] as? [String]) ?? (property["type"] as? String).map { [$0] } ?? []
        if types.isEmpty { return true }
        switch value {
        case is NSNull: return types.contains("null")
        case let number as NSNumber:
            if types.contains("number") { return true }
            if types.contains("integer") { return number.doubleValue.rounded() == number.doubleValue }
            return types.contains("boolean") && value is Bool
        case is String: return types.contains("string")
        case is [Any]: return types.contains("array")
        default: return false
        }
    }
}

/// A new record's NULL given as such (`FIELD:=null`, `null` in `--json`) is
/// stored where the column takes it, whatever its default: one that is no
/// literal (`CURRENT_TIMESTAMP`, `(random())`) was written in its place. A
/// field left out takes the default, and so does a NOT NULL column given NULL.
@Suite struct NewRecordNullTests {
    @Test func anExplicitNullIsStoredOverAnyDefault() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, created TEXT DEFAULT CURRENT_TIMESTAMP, r REAL DEFAULT (random()),
                            lit TEXT DEFAULT 'x', nn TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);
            """)
        let typed = try demo.run(["new", "t", "created:=null", "r:=null", "lit:=null"])
        #expect(typed.code == 0, "\(typed)")
        let json = try demo.run(["new", "t", "--json"], stdin: #"{"created": null, "r": null, "lit": null}"#)
        #expect(json.code == 0, "\(json)")
        let none = try demo.run(["new", "t"])
        #expect(none.code == 0, "\(none)")
        #expect(try demo.query("SELECT id, typeof(created), typeof(r), quote(lit), typeof(nn) FROM t ORDER BY id")
            == "1|null|null|NULL|text\n2|null|null|NULL|text\n3|text|real|'x'|text\n")
        // On a NOT NULL column the default stays, from an import too.
        let notNull = try demo.run(["new", "t", "nn:=null"])
        #expect(notNull.code == 0, "\(notNull)")
        let imported = try demo.run(["import", "t"], stdin: #"{"id": 9, "created": null, "nn": null}"#)
        #expect(imported.code == 0, "\(imported)")
        #expect(try demo.query("SELECT typeof(created), typeof(nn) FROM t WHERE id IN (4, 9) ORDER BY id") == "text|text\nnull|text\n")
    }
}
