import FormStoreTestSupport
import Foundation
import Testing

/// An import takes a value its field would parse to itself (text through no
/// transform, a number of the field's kind, NULL) as it arrived, unparsed
/// (`RecordImporter.takesAsIs`). These rows, with escapes, non-ASCII text,
/// a decomposed accent, empty text and NULL, must be stored byte for byte as
/// `new --json` (the session's path) stores the same object.
@Suite struct ImportValuesAsIsTests {
    static let schema = """
    CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT, body TEXT, qty INTEGER, price REAL, flag BOOLEAN);
    CREATE TABLE items_new (id INTEGER PRIMARY KEY, title TEXT, body TEXT, qty INTEGER, price REAL, flag BOOLEAN);
    """

    static let objects = [
        #"{"id": 1, "title": "a\"b\\c\/d\ne\tf", "body": "\u00e9\ud83d\ude00 caf\u00E9", "qty": 3, "price": 2.5, "flag": true}"#,
        #"{"id": 2, "title": "Zoë – 日本語", "body": "e\u0301 stays decomposed", "qty": -7, "price": 0.125, "flag": false}"#,
        #"{"id": 3, "title": "", "body": null, "qty": null, "price": null, "flag": null}"#,
        #"{"id": 4, "title": null, "body": "", "qty": 0, "price": 3, "flag": 1}"#,
        #"{"id": 5, "title": "  spaces kept  ", "body": "x\u0000y", "qty": 9007199254740993, "price": -1e3}"#,
    ]

    /// Each column's storage class and bytes: NULL and '' apart, text by its UTF-8.
    static func rows(_ demo: DemoDatabase, _ table: String) throws -> String {
        try demo.query("""
            SELECT id, quote(title), hex(title), quote(body), hex(body), typeof(qty), qty, typeof(price), price,
                   typeof(flag), flag FROM \(table) ORDER BY id
            """)
    }

    @Test func importStoresWhatNewStores() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let file = try demo.file("items.ndjson", Self.objects.joined(separator: "\n") + "\n")
        let imported = try demo.run(["import", "items", file, "--format", "ndjson"])
        #expect(imported.code == 0, "\(imported)")
        for object in Self.objects {
            let created = try demo.run(["new", "items_new", "--json"], stdin: object)
            #expect(created.code == 0, "\(created)")
        }
        let stored = try Self.rows(demo, "items")
        #expect(stored == (try Self.rows(demo, "items_new")))
        // The values as they arrived: escapes decoded, the accent not composed, NULL apart from ''.
        #expect(try demo.query("SELECT title, hex(body) FROM items WHERE id = 1") == "a\"b\\c/d\ne\tf|C3A9F09F988020636166C3A9\n")
        #expect(try demo.query("SELECT hex(body) FROM items WHERE id = 2") == "65CC81207374617973206465636F6D706F736564\n")
        #expect(try demo.query("SELECT quote(title), quote(body) FROM items WHERE id IN (3, 4) ORDER BY id") == "''|NULL\nNULL|''\n")
        #expect(try demo.query("SELECT typeof(price), price FROM items WHERE id = 4") == "real|3.0\n")
        #expect(try demo.query("SELECT quote(title), qty FROM items WHERE id = 5") == "'  spaces kept  '|9007199254740993\n")
    }

    /// A JSON column's document given nested (`{"meta": {"k": 1}}`, as
    /// `sqlite-utils --json-cols` writes it) is stored as its compact JSON
    /// text, by import, `new --json` and `set meta:=` alike, and export gives
    /// that text back as the string it now is.
    /// Its numbers and escapes stay as written (`1.50`, `2e3`, `\u00e9`): the
    /// document was spelled anew (`1.5`, `2000.0`, `é`).
    @Test func aDocumentIsStoredAsWrittenLessItsSpaces() throws {
        let demo = try DemoDatabase(sql: "CREATE TABLE d (id INTEGER PRIMARY KEY, meta JSON);")
        let document = #"{ "price" : 10.00, "n": [1.0, 2e3], "s": "caf\u00e9 \"x\"" }"#
        let stored = #"{"price":10.00,"n":[1.0,2e3],"s":"caf\u00e9 \"x\""}"#
        #expect(try demo.run(["new", "d", "id=1", "meta:=" + document]).code == 0)
        #expect(try demo.run(["new", "d", "--json"], stdin: #"{"id": 2, "meta": "# + document + "}").code == 0)
        #expect(try demo.run(["import", "d"], stdin: #"{"id": 3, "meta": "# + document + "}\n").code == 0)
        #expect(try demo.run(["new", "d", "id=4"]).code == 0)
        #expect(try demo.run(["set", "d", "4", "--json"], stdin: #"{"meta": "# + document + "}").code == 0)
        #expect(try demo.query("SELECT DISTINCT meta FROM d") == stored + "\n")
        // Given again, it is no change.
        let again = try demo.run(["import", "d"], stdin: #"{"id": 3, "meta": "# + document + "}\n")
        #expect(again.errors.contains("0 updated, 1 unchanged"), "\(again)")
    }

    /// A REAL ±Infinity is exported by name, as text `'Infinity'` is:
    /// imported back into its own row, in any column, it is no change.
    @Test(arguments: [["--format", "ndjson"], ["--format", "csv", "--raw-csv"]])
    func anInfinityExportedAndImportedBackIsNoChange(_ format: [String]) throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE u (id INTEGER PRIMARY KEY, v, j JSON, t TEXT, r REAL);
            INSERT INTO u VALUES (1, 9e999, -9e999, 'Infinity', 9e999), (2, 'Infinity', 1, '-Infinity', -9e999);
            """)
        let before = try demo.dump()
        let exported = try demo.run(["export", "u"] + format)
        #expect(exported.code == 0, "\(exported)")
        let imported = try demo.run(["import", "u", "--format", format[1]], stdin: exported.output)
        #expect(imported.code == 0 && imported.errors.contains("0 updated, 2 unchanged"), "\(imported)")
        #expect(try demo.dump() == before)
    }

    /// A bool changed on a stored row keeps the row's words, however it
    /// arrived, as `set` writes it: `'true'` becomes `'false'`, `'Y'` `'N'`,
    /// `'on'` `'off'`. Import stored `0` or the word it was given.
    /// A BLOB or untyped column holds any class: exported and imported into
    /// an empty copy, or back over itself, each value keeps it. Text of hex
    /// digits stays text and a number a number (they were parsed as typed hex).
    @Test(arguments: [["--format", "ndjson"], ["--format", "csv", "--raw-csv"]])
    func aBlobColumnsValuesKeepTheirClass(_ format: [String]) throws {
        let schema = """
            CREATE TABLE bb (id INTEGER PRIMARY KEY, b BLOB, u);
            INSERT INTO bb VALUES (1, x'cafe', x'cafe'), (2, 'CAFE', 'x''CAFE'''), (3, 42, 42), (4, 'abc', '0xff'), (5, 1.5, 1.5);
            """
        let demo = try DemoDatabase(sql: schema)
        let fresh = try DemoDatabase(sql: "CREATE TABLE bb (id INTEGER PRIMARY KEY, b BLOB, u);")
        let exported = try demo.run(["export", "bb"] + format)
        #expect(exported.code == 0, "\(exported)")
        let before = try demo.dump()
        let again = try demo.run(["import", "bb"] + format.prefix(2), stdin: exported.output)
        #expect(again.errors.contains("5 unchanged"), "\(again)")
        #expect(try demo.dump() == before)
        #expect(try fresh.run(["import", "bb"] + format.prefix(2), stdin: exported.output).code == 0)
        let classes = "SELECT id, quote(b), quote(u) FROM bb ORDER BY id"
        #expect(try fresh.query(classes) == (try demo.query(classes)))
        // `:=` and `set --json` say the class as JSON does: a string is text, a number a number, not hex typed.
        #expect(try demo.run(["set", "bb", "4", #"b:="CAFE""#]).code == 0)
        #expect(try demo.query("SELECT quote(b) FROM bb WHERE id = 4") == "'CAFE'\n")
        #expect(try demo.run(["set", "bb", "4", "--json"], stdin: #"{"b": "BEEF", "u": 12}"#).code == 0)
        #expect(try demo.query("SELECT quote(b), quote(u) FROM bb WHERE id = 4") == "'BEEF'|12\n")
    }

    /// A DATE column holding a date and time (someone else's app wrote it):
    /// an export imports into an empty copy as it was, time and all (the
    /// time was refused as "would be cut off", though a new row keeps its text).
    @Test func aDateColumnsDateAndTimeImportsIntoAnEmptyCopy() throws {
        let schema = "CREATE TABLE ev (id INTEGER PRIMARY KEY, day DATE);"
        let demo = try DemoDatabase(sql: schema + "INSERT INTO ev VALUES (1, '2024-01-02'), (2, '2024-01-02 10:00:00');")
        let fresh = try DemoDatabase(sql: schema)
        let exported = try demo.run(["export", "ev"])
        let imported = try fresh.run(["import", "ev"], stdin: exported.output)
        #expect(imported.code == 0, "\(imported)")
        #expect(try fresh.query("SELECT id, quote(day) FROM ev ORDER BY id") == "1|'2024-01-02'\n2|'2024-01-02 10:00:00'\n")
    }

    @Test func aChangedBoolKeepsTheRowsWords() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, ok BOOLEAN);
            INSERT INTO t VALUES (1, 'true'), (2, 'Y'), (3, 'on'), (4, 1);
            """)
        let imported = try demo.run(["import", "t"], stdin: """
            {"id": 1, "ok": false}
            {"id": 2, "ok": "no"}
            {"id": 3, "ok": 0}
            {"id": 4, "ok": "false"}

            """)
        #expect(imported.code == 0 && imported.errors.contains("4 updated"), "\(imported)")
        #expect(try demo.query("SELECT id, quote(ok) FROM t") == "1|'false'\n2|'N'\n3|'off'\n4|0\n")
        let set = try demo.run(["set", "t", "1", "ok=yes"])
        #expect(set.code == 0, "\(set)")
        #expect(try demo.query("SELECT quote(ok) FROM t WHERE id = 1") == "'true'\n")
    }

    /// A JSON list is read alike by every door: a text, JSON or untyped
    /// column stores its JSON text, a number, date or bool field refuses it.
    @Test func aListIsStoredAlikeByEveryDoor() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, t TEXT, j JSON, u, i INT, d DATE, b BOOLEAN);
            INSERT INTO t (id) VALUES (1), (2);
            """)
        #expect(try demo.run(["set", "t", "1", "t:=[1,2.5]", #"j:=["a,b",null]"#, "u:=[]"]).code == 0)
        #expect(try demo.run(["set", "t", "2", "--json"], stdin: #"{"t": [1,2.5], "j": ["a,b",null], "u": []}"#).code == 0)
        #expect(try demo.run(["new", "t", "--json"], stdin: #"{"id": 3, "t": [1,2.5], "j": ["a,b",null], "u": []}"#).code == 0)
        #expect(try demo.run(["import", "t"], stdin: #"{"id": 4, "t": [1,2.5], "j": ["a,b",null], "u": []}"#).code == 0)
        #expect(try demo.query("SELECT DISTINCT t, j, u FROM t") == #"[1,2.5]|["a,b",null]|[]"# + "\n")
        for field in ["i", "d", "b"] {
            let refused = try demo.run(["set", "t", "1", "\(field):=[1]"])
            #expect(refused.code == 65 && refused.errors == "formstore: \(field): \(field) cannot hold a list\n", "\(refused)")
            let json = try demo.run(["set", "t", "1", "--json"], stdin: #"{"\#(field)": [1]}"#)
            #expect(json.code == 65 && json.errors.contains("\(field) cannot hold a list"), "\(json)")
        }
        #expect(try demo.query("SELECT count(*) FROM t WHERE i IS NOT NULL OR d IS NOT NULL OR b IS NOT NULL") == "0\n")
    }

    @Test func aNestedDocumentIsStoredAsItsJSONText() throws {
        let demo = try DemoDatabase(sql: "CREATE TABLE docs (id INTEGER PRIMARY KEY, meta JSON, items TEXT);")
        let file = try demo.file("docs.ndjson", #"""
            {"id": 1, "meta": {"k": 1, "tags": ["a", "b"], "e": {}}, "items": [{"n": 1}, {"n": 2.5}]}
            {"id": 2, "meta": "{\"as\": \"text\"}", "items": ["x"]}

            """#)
        let imported = try demo.run(["import", "docs", file])
        #expect(imported.code == 0, "\(imported)")
        let created = try demo.run(["new", "docs", "--json"], stdin: #"{"id": 3, "meta": {"é": null}}"#)
        #expect(created.code == 0, "\(created)")
        let set = try demo.run(["set", "docs", "2", #"items:=[{"q": true}]"#])
        #expect(set.code == 0, "\(set)")
        // With --children only a group's key holds rows: a JSON column's list of objects stays its value.
        let children = try demo.run(["import", "docs", "--children"], stdin: #"{"id": 4, "items": [{"n": 4}]}"#)
        #expect(children.code == 0, "\(children)")
        #expect(try demo.query("SELECT items FROM docs WHERE id = 4") == #"[{"n":4}]"# + "\n")
        #expect(try demo.run(["delete", "docs", "4", "--yes"]).code == 0)
        #expect(try demo.query("SELECT id, typeof(meta), meta, items FROM docs ORDER BY id") == #"""
            1|text|{"k":1,"tags":["a","b"],"e":{}}|[{"n":1},{"n":2.5}]
            2|text|{"as": "text"}|[{"q":true}]
            3|text|{"é":null}|

            """#)
        let exported = try demo.run(["export", "docs", "--format", "ndjson"])
        #expect(exported.output.split(separator: "\n").first
            == #"{"id": 1, "meta": "{\"k\":1,\"tags\":[\"a\",\"b\"],\"e\":{}}", "items": "[{\"n\":1},{\"n\":2.5}]"}"#)
    }

    /// A spreadsheet's header (`ID`, `Title`), with a byte-order mark and CRLF,
    /// names the columns `id` and `title` as SQLite would match them.
    @Test func aHeaderInAnotherCaseNamesTheColumns() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let file = try demo.file("items.csv", "\u{FEFF}ID,Title,QTY\r\n7,Seven,3\r\n8,\"Eight, \"\"quoted\"\"\",\r\n")
        let imported = try demo.run(["import", "items", file, "--format", "csv"])
        #expect(imported.code == 0, "\(imported)")
        #expect(try demo.query("SELECT id, title, quote(qty) FROM items ORDER BY id") == "7|Seven|3\n8|Eight, \"quoted\"|NULL\n")
    }
}
