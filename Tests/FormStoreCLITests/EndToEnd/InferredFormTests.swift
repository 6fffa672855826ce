import FormStoreTestSupport
import Foundation
import Testing

/// Tables without specs: forms inferred from the columns of a schema with a
/// composite key, WITHOUT ROWID, a table without a declared key, foreign
/// keys, BLOBs, NULLs, and names with spaces, quotes and keywords.
@Suite struct InferredFormTests {
    static let schema = #"""
    CREATE TABLE "select" ("from" TEXT PRIMARY KEY, "a ""quoted"" name" TEXT, "where" INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE "line items" (
        "order" TEXT NOT NULL REFERENCES "select"("from"),
        "line no" INTEGER NOT NULL,
        qty NUMERIC,
        price REAL,
        "when" DATE,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'shipped')),
        photo BLOB,
        PRIMARY KEY ("order", "line no")
    ) WITHOUT ROWID;
    CREATE TABLE notes (body TEXT, created DATETIME);
    INSERT INTO "select" VALUES ('x', 'it''s', 1), ('y,z', NULL, 2);
    INSERT INTO "line items" VALUES ('x', 1, 2, 3.5, '2024-01-31', 'shipped', x'00010203'),
                                    ('x', 2, NULL, NULL, NULL, 'open', NULL);
    INSERT INTO notes VALUES ('hello', '2024-01-31 10:00:00'), (NULL, NULL);
    """#

    @Test func everyTableGetsAForm() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let forms = try demo.run(["forms", "--format", "json"])
        #expect(forms.code == 0, "\(forms)")
        #expect(forms.output.contains("{\"name\": \"line items\", \"title\": \"line items\", \"source\": \"table\", \"fields\": 7, "
            + "\"table\": \"line items\", \"origin\": \"inferred\"}"))
        let text = try demo.run(["form", "line items"])
        #expect(text.output.contains("  order: order (text, not null, read-only, primary key)\n"))
        #expect(text.output.contains("  status: status (choice, default 'open')\n    choices: open, shipped\n"))
        // What SQLite holds the table to, as its schema writes it.
        #expect(text.output.hasSuffix("\nChecks of table line items (the database refuses a row breaking one)\n"
                                      + "  status IN ('open', 'shipped')\n"), "\(text)")
        let schema = try demo.run(["form", "select", "--format", "json-schema"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(schema.output.utf8)) as? [String: Any])
        let properties = try #require(parsed["properties"] as? [String: Any])
        #expect(Set(properties.keys) == ["from", "a \"quoted\" name", "where"])
    }

    @Test func compositeKeysAndAwkwardNamesWork() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let show = try demo.run(["show", "line items", "order=x,line no=1", "--format", "json"])
        #expect(show.code == 0, "\(show)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(show.output.utf8)) as? [String: Any])
        #expect(record["photo"] as? [String: String] == ["$base64": "AAECAw=="])
        #expect(record["when"] as? String == "2024-01-31")
        let list = try demo.run(["list", "line items"])
        #expect(list.output.contains("<blob 4 bytes>"))
        let set = try demo.run(["set", "line items", "line no=2,order=x", "qty=4", "when=2024-02-01", "status=shipped"])
        #expect(set.code == 0, "\(set)")
        #expect(try demo.query(#"SELECT qty, "when", status FROM "line items" WHERE "line no" = 2"#) == "4|2024-02-01|shipped\n")
        let quoted = try demo.run(["set", "select", "x", "a \"quoted\" name=new", "where=7"])
        #expect(quoted.code == 0, "\(quoted)")
        #expect(try demo.query(#"SELECT "a ""quoted"" name", "where" FROM "select" WHERE "from" = 'x'"#) == "new|7\n")
        // A key with a comma, escaped.
        let comma = try demo.run(["show", "select", #"y\,z"#])
        #expect(comma.code == 0, "\(comma)")
        #expect(comma.output.hasPrefix("from:            y,z\n"))
        let filtered = try demo.run(["list", "line items", "--where", "order=x", "--where", "status=open", "--format", "csv"])
        #expect(filtered.output == "order,line no,qty,price,when,status,photo\r\n")
    }

    @Test func wrongKeysAreUsageErrorsOrNotFound() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let single = try demo.run(["show", "line items", "x"])
        #expect(single.code == 64)
        #expect(single.errors.hasPrefix("Error: The key has 2 columns; write it as order=…,line no=…\n"))
        let missing = try demo.run(["show", "line items", "order=x,line no=9"])
        #expect(missing.code == 66)
        #expect(missing.errors == "formstore: line items: no record with key order=x,line no=9\n")
    }

    @Test func checksAndForeignKeysAreEnforced() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        let choice = try demo.run(["set", "line items", "order=x,line no=1", "status=lost"])
        #expect(choice.code == 65)
        #expect(choice.errors.contains("  status: \"lost\" is not one of the choices for status\n"))
        let foreign = try demo.run(["new", "line items", "order=nope", "line no=1"])
        #expect(foreign.code == 65)
        // Refused before SQLite's constraint error, naming the field (issue 15).
        #expect(foreign.errors == "formstore: order: no row of 'select' has from = nope\n")
        let duplicate = try demo.run(["new", "line items", "order=x", "line no=1"])
        #expect(duplicate.code == 65)
        #expect(duplicate.errors == "formstore: UNIQUE constraint failed: line items.order, line items.line no\n")
        #expect(try demo.dump() == before)
    }

    @Test func aTableWithoutADeclaredKeyIsEditedByRowid() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let new = try demo.run(["new", "notes", "body=hi", "created=2024-05-01 12:30"])
        #expect(new.code == 0, "\(new)")
        #expect(new.errors == "Created notes 3.\n")
        let list = try demo.run(["list", "notes", "--format", "csv"])
        // list shows dates one way; the new row's date is stored in the column's form.
        #expect(list.output == "rowid,body,created\r\n1,hello,2024-01-31 10:00:00\r\n2,,\r\n3,hi,2024-05-01 12:30:00\r\n")
        #expect(try demo.query("SELECT created FROM notes WHERE rowid = 3") == "2024-05-01 12:30:00\n")
        let nulls = try demo.run(["list", "notes", "--where", "body=", "--format", "csv"])
        #expect(nulls.output == "rowid,body,created\r\n2,,\r\n")
        let delete = try demo.run(["delete", "notes", "2", "--yes"])
        #expect(delete.code == 0)
        #expect(try demo.query("SELECT rowid FROM notes") == "1\n3\n")
    }

    /// Columns named rowid, _rowid_ and oid hide all three names of a
    /// table's rowid: its rows are listed, exported and added to like a
    /// view's, and a command that finds one by key says why it cannot.
    @Test func aTableWhoseColumnsHideItsRowidIsListedLikeAView() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE odd (rowid TEXT, _rowid_ TEXT, oid TEXT, name TEXT);
            INSERT INTO odd VALUES ('a', 'b', 'c', 'n');

            """)
        let list = try demo.run(["list", "odd", "--format", "csv"])
        #expect(list.code == 0, "\(list)")
        #expect(list.output == "rowid,_rowid_,oid,name\r\na,b,c,n\r\n")
        let export = try demo.run(["export", "odd"])
        #expect(export.output == #"{"rowid": "a", "_rowid_": "b", "oid": "c", "name": "n"}"# + "\n", "\(export)")
        let new = try demo.run(["new", "odd", "name=m"])
        #expect(new.code == 0, "\(new)")
        #expect(try demo.query("SELECT count(*) FROM odd WHERE name = 'm' AND rowid IS NULL") == "1\n")
        let before = try demo.dump()
        for command in [["show", "odd", "1"], ["set", "odd", "1", "name=x"], ["delete", "odd", "1", "--yes"]] {
            let refused = try demo.run(command)
            #expect(refused.code == 64, "\(command): \(refused)")
            #expect(refused.errors.hasPrefix("Error: 'odd' has no primary key to find records by "
                    + "(its columns rowid, _rowid_ and oid hide its rowid): list and export read it; "
                    + "a spec may name key columns as primaryKey\nUsage: "), "\(refused)")
        }
        #expect(try demo.dump() == before)
    }

    /// A key column of no declared type holds a key as a number or as its
    /// text: either is found by the key as shown; where one table holds both
    /// `1` and `'1'`, a write by that key is refused rather than made to one
    /// of them, and an import of its export writes nothing.
    @Test func anUntypedKeyIsFoundAsNumberOrText() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE p (k PRIMARY KEY, v TEXT);
            INSERT INTO p VALUES ('7', 'text seven'), (8, 'eight'), ('abc', 'letters');
            CREATE TABLE twice (k PRIMARY KEY, v TEXT);
            INSERT INTO twice VALUES (1, 'int one'), ('1', 'text one');

            """)
        #expect(try db.run(["show", "p", "7"]).output == "k: 7\nv: text seven\n")
        #expect(try db.run(["set", "p", "7", "v=seven"]).code == 0)
        #expect(try db.run(["set", "p", "8", "v=huit"]).code == 0)
        #expect(try db.run(["delete", "p", "abc", "--yes"]).code == 0)
        #expect(try db.query("SELECT quote(k), v FROM p ORDER BY v") == "8|huit\n'7'|seven\n")
        let before = try db.dump()
        let set = try db.run(["set", "twice", "1", "v=which"])
        #expect(set.code == 65)
        #expect(set.errors == "formstore: the key names more than one row of 'twice': they cannot be told apart by it\n")
        let export = try db.run(["export", "twice"])
        let imported = try db.run(["import", "twice"], stdin: export.output)
        #expect(imported.code == 65, "\(imported)")
        #expect(try db.dump() == before)
    }
}

/// A DATE column holding dates in a layout FormStore does not read as dates
/// (`12/31/1999`: March or May by country, so text) is inferred as text:
/// typed in its own layout, a date was refused ("not a valid date"), and one
/// typed as `2017-08-09` was written in ISO over the column's layout.
@Suite struct SlashDateInferenceTests {
    @Test func aColumnOfSlashDatesIsEditedAsText() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, us DATE, iso DATE);
            INSERT INTO ev VALUES (1, '12/31/1999', '2024-01-02'), (2, '03/05/2024', NULL);
            """)
        let set = try demo.run(["set", "ev", "1", "us=01/02/2003"])
        #expect(set.code == 0, "\(set)")
        #expect(try demo.query("SELECT us, iso FROM ev WHERE id = 1") == "01/02/2003|2024-01-02\n")
        // A column of dates FormStore reads stays a date field.
        let iso = try demo.run(["set", "ev", "1", "iso=01/02/2003"])
        #expect(iso.code == 65, "\(iso)")
        // Empty text is no layout: a DATE column holding only '' stays a date field.
        let empty = try DemoDatabase(sql: "CREATE TABLE p (id INTEGER PRIMARY KEY, due DATE NOT NULL DEFAULT ''); INSERT INTO p DEFAULT VALUES;")
        #expect(try empty.run(["set", "p", "1", "due=2024-02-30"]).code == 65)
    }

    /// A column of ISO dates with slash dates among them refused the slash
    /// rows' own layout and wrote one typed in ISO over it; one of .NET's
    /// 7-digit fractions showed cut to the microsecond, and a change within
    /// it was "No changes". Both are edited as text, as stored.
    @Test func aColumnADateFieldWouldNotKeepIsEditedAsText() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, due DATE, at DATETIME);
            INSERT INTO ev VALUES (1, '2024-01-05', '2024-01-02 10:00:00.1234567'),
                                  (2, '05/01/2024', '2024-01-02 10:00:00.1234568');
            """)
        let listed = try demo.run(["list", "ev", "--format", "csv"])
        #expect(listed.output == "id,due,at\r\n1,2024-01-05,2024-01-02 10:00:00.1234567\r\n"
                + "2,05/01/2024,2024-01-02 10:00:00.1234568\r\n", "\(listed)")
        let slash = try demo.run(["set", "ev", "2", "due=06/01/2024", "at=2024-01-02 10:00:00.1234569"])
        #expect(slash.code == 0, "\(slash)")
        #expect(slash.output.contains("2024-01-02 10:00:00.1234568  2024-01-02 10:00:00.1234569"), "\(slash)")
        #expect(try demo.query("SELECT due, at FROM ev ORDER BY id")
                == "2024-01-05|2024-01-02 10:00:00.1234567\n06/01/2024|2024-01-02 10:00:00.1234569\n")
        #expect(try demo.run(["form", "ev"]).output.contains("due: due (text)"))
        // Typed as text, not in a date's format (the editor's comment said `format: yyyy-MM-dd`).
        #expect(try demo.run(["form", "ev", "--format", "json"]).output.contains("\"format\"") == false)
    }

    /// A date column that is mostly NULL is read at the ends of its table
    /// (its first and last 1000 rows): its slash dates in the last rows make
    /// it a text field, and its epochs there give a new row's date its form.
    /// The whole table was read for it, at every start.
    @Test func aMostlyNullDateColumnIsReadAtTheEndsOfItsTable() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE ev (id INTEGER PRIMARY KEY, us DATE, at DATETIME);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO ev (id) SELECT i FROM n;
            UPDATE ev SET us = '12/31/1999', at = 1704103200 WHERE id > 4990;
            """)
        #expect(try demo.run(["form", "ev"]).output.contains("us: us (text)"))
        let made = try demo.run(["new", "ev", "id=5001", "at=2024-01-02 10:00:00"])
        #expect(made.code == 0, "\(made)")
        #expect(try demo.query("SELECT at, typeof(at) FROM ev WHERE id = 5001") == "1704189600|integer\n")
    }

    /// An export of such columns imports into an empty copy of its table,
    /// whose inferred form has no rows to read their layout off: the first
    /// rows of the import are read for it. A column of dates the copy already
    /// holds still refuses a slash date.
    @Test func anExportOfSuchColumnsImportsIntoAnEmptyCopy() throws {
        let schema = "CREATE TABLE ev (id INTEGER PRIMARY KEY, us DATE, iso DATE, at DATETIME);\n"
        let source = try DemoDatabase(sql: schema + """
            INSERT INTO ev VALUES (1, '03/05/2024', '2024-01-01', '2024-01-02 10:00:00.1234567'),
                                  (2, '03/06/2024', NULL, '2024-01-02 10:00:00.1234568');
            """)
        for format in ["ndjson", "json", "csv"] {
            let export = try source.run(["export", "ev", "--format", format])
            let copy = try DemoDatabase(sql: schema)
            let imported = try copy.run(["import", "ev", "--format", format], stdin: export.output)
            #expect(imported.code == 0, "\(format): \(imported)")
            #expect(try copy.dump() == source.dump(), "\(format)")
            let refused = try copy.run(["import", "ev", "--format", "ndjson"], stdin: #"{"id": 3, "iso": "12/31/1999"}"# + "\n")
            #expect(refused.code == 65 && refused.errors.contains("line 1: iso: iso is not a valid date"), "\(refused)")
        }
    }

    /// The rows read ahead are read as the import reads them: a header
    /// matches its field ignoring case, a line that does not parse is
    /// reported as any is, and a column's first 20 values are those past
    /// its leading NULLs, as the source's are read. A group's row fields
    /// (`--children`) are read the same way.
    @Test func theRowsReadAheadAreReadAsTheImportReadsThem() throws {
        let empty = try DemoDatabase(sql: "CREATE TABLE q (id INTEGER PRIMARY KEY, name TEXT, d DATE);")
        let cased = try empty.run(["import", "q", "--format", "csv"], stdin: "ID,Name\r\n1,ann\r\n")
        #expect(cased.code == 0, "\(cased)")
        let broken = try empty.run(["import", "q", "--format", "ndjson"], stdin: "{\"id\": 2}\n{\"id\": 3,,}\n")
        #expect(broken.code == 65 && broken.errors == "formstore: line 2, column 10: expected a quoted key; nothing was imported\n",
                "\(broken)")

        let schema = "CREATE TABLE ev (id INTEGER PRIMARY KEY, d DATE, note TEXT);\n"
        let source = try DemoDatabase(sql: schema + (1...24).map { "INSERT INTO ev (id) VALUES (\($0));\n" }.joined()
            + "INSERT INTO ev VALUES (25, '03/05/2024', 'x');\n")
        let copy = try DemoDatabase(sql: schema)
        let imported = try copy.run(["import", "ev"], stdin: try source.run(["export", "ev"]).output)
        #expect(imported.code == 0, "\(imported)")
        #expect(try copy.dump() == source.dump())

        let parents = """
            CREATE TABLE inv (id INTEGER PRIMARY KEY, issued DATE);
            CREATE TABLE line (id INTEGER PRIMARY KEY, inv_id INTEGER REFERENCES inv(id), shipped DATE);

            """
        let withRows = try DemoDatabase(sql: parents + "INSERT INTO inv VALUES (1, '2024-01-02'); INSERT INTO line VALUES (1, 1, '03/05/2024');")
        let emptyCopy = try DemoDatabase(sql: parents)
        let rows = try emptyCopy.run(["import", "inv", "--children"], stdin: try withRows.run(["export", "inv", "--children"]).output)
        #expect(rows.code == 0, "\(rows)")
        #expect(try emptyCopy.dump() == withRows.dump())
    }

    /// A Core Data store's TIMESTAMP holds REAL seconds since 2001-01-01: it
    /// is edited as the number it is. Read as a Unix epoch it was shown 31
    /// years early, and a date typed was written 31 years late to the app.
    @Test func aCoreDataTimestampIsTheNumberItHolds() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATIONDATE TIMESTAMP, ZTITLE VARCHAR);
            INSERT INTO ZNOTE VALUES (2, 1, 1, 726000000.5, 'n2');
            CREATE TABLE plain (id INTEGER PRIMARY KEY, created TIMESTAMP); INSERT INTO plain VALUES (1, 1704067200);
            """)
        let shown = try db.run(["show", "ZNOTE", "2", "--format", "json"])
        #expect(shown.output.contains(#""ZCREATIONDATE": 726000000.5"#), "\(shown)")
        #expect(try db.run(["set", "ZNOTE", "2", "ZCREATIONDATE=726086400.5"]).code == 0)
        #expect(try db.query("SELECT quote(ZCREATIONDATE) FROM ZNOTE") == "726086400.5\n")
        // Elsewhere an epoch is still a date.
        #expect(try db.run(["show", "plain", "1", "--format", "json"]).output.contains(#""created": "2024-01-01"#))
    }
}
