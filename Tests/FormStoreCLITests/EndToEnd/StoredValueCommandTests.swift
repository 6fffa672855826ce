import FormStoreTestSupport
import Foundation
import Testing

/// `set` on rows another application wrote: a rule that an untouched stored
/// value breaks is a warning (exit 0), a changed value is validated; choices
/// are named by value or label, never by position.
@Suite struct StoredValueCommandTests {
    static let schema = """
    CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, email TEXT, city TEXT);
    INSERT INTO t VALUES (1, 'Ann', 'not-an-email', 'Warszawa');
    CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT, prio INTEGER NOT NULL DEFAULT 0 CHECK (prio IN (0, 1, 2, 5)));
    INSERT INTO tasks VALUES (1, 'write', 0);
    """

    /// A spec that says `email` holds e-mail addresses: a rule, not a guess.
    static let spec = """
    {"formstore": 1, "name": "t", "table": "t", "primaryKey": ["id"], "sections": [{"fields": [
      {"key": "id", "label": "ID", "kind": "integer", "readOnly": true},
      {"key": "name", "label": "Name", "kind": "name"},
      {"key": "email", "label": "Email", "kind": "email"},
      {"key": "city", "label": "City"}
    ]}]}
    """

    func database() throws -> DemoDatabase {
        let demo = try DemoDatabase(sql: Self.schema)
        demo.formsDirectory = demo.scratch.path + "/forms"
        try demo.file("forms/t.json", Self.spec)
        return demo
    }

    @Test func anUntouchedBrokenValueWarnsAndTheChangeIsSaved() throws {
        let demo = try database()
        let set = try demo.run(["set", "t", "1", "city=Kraków"])
        #expect(set.code == 0, "\(set)")
        #expect(set.errors == "formstore: warning: t 1: email: Email is not a valid e-mail address (stored so; left unchanged)\n")
        #expect(set.output.contains("Kraków"))
        #expect(try demo.query("SELECT name, email, city FROM t") == "Ann|not-an-email|Kraków\n")
    }

    @Test func aChangedValueIsValidated() throws {
        let demo = try database()
        let before = try demo.dump()
        let set = try demo.run(["set", "t", "1", "email=still-bad"])
        #expect(set.code == 65, "\(set)")
        #expect(set.errors.contains("  email: Email is not a valid e-mail address\n"))
        #expect(try demo.dump() == before)
        let fixed = try demo.run(["set", "t", "1", "email=ann@example.com"])
        #expect(fixed.code == 0, "\(fixed)")
        #expect(fixed.errors.isEmpty)
    }

    @Test func aStoredValueTypedAgainIsNoChangeThoughItWouldNotParse() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE m (id INTEGER PRIMARY KEY, dec REAL, note TEXT);
            INSERT INTO m VALUES (1, 'n/a', NULL);
            """)
        let before = try demo.dump()
        let same = try demo.run(["set", "m", "1", "dec=n/a"])
        #expect(same.code == 0, "\(same)")
        #expect(same.output == "No changes.\n" || same.errors.contains("No changes."), "\(same)")
        #expect(try demo.dump() == before)
        let other = try demo.run(["set", "m", "1", "dec=n/a", "note=checked"])
        #expect(other.code == 0, "\(other)")
        #expect(try demo.query("SELECT quote(dec), note FROM m") == "'n/a'|checked\n")
        // Other text that is no number is still refused.
        #expect(try demo.run(["set", "m", "1", "dec=N/A"]).code == 65)
        // So is a float's infinity typed as `show` prints it, the name JSON gives it too.
        _ = try demo.query("UPDATE m SET dec = 9e999 WHERE id = 1")
        let infinite = try demo.dump()
        #expect(try demo.run(["show", "m", "1"]).output.contains("dec:  Infinity\n"))
        let again = try demo.run(["set", "m", "1", "dec=Infinity"])
        #expect(again.code == 0 && (again.output + again.errors).contains("No changes."), "\(again)")
        #expect(try demo.dump() == infinite)
        // NaN, which SQLite stores as NULL, is refused rather than stored as what it is not.
        let nan = try demo.run(["set", "m", "1", "dec=NaN"])
        #expect(nan.code == 65 && nan.errors.contains("NaN would be stored as NULL"), "\(nan)")
        #expect(try demo.dump() == infinite)
    }

    /// A number the field would refuse as typed (`2.5` in an INTEGER
    /// column), and text a number's column holds that would parse as a float
    /// (`Infinity`, `NaN` kept as text in a REAL or NUMERIC column), typed
    /// again as shown are no change: the number was refused ("must be a whole
    /// number"), and the text rewritten as the float `1e999`. Other input is
    /// still refused, never taken as NULL.
    @Test func aStoredNumberOrTextTypedAgainIsNoChange() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE v (id INTEGER PRIMARY KEY, ni INTEGER, nr REAL, n NUMERIC);
            INSERT INTO v VALUES (1, 2.5, 'Infinity', 'NaN');
            """)
        let before = try demo.dump()
        let same = try demo.run(["set", "v", "1", "ni=2.5", "nr=Infinity", "n=NaN"])
        #expect(same.code == 0 && same.errors.contains("No changes."), "\(same)")
        #expect(try demo.dump() == before)
        for bad in ["ni=abc", "nr=abc", "ni=2.6"] {
            let refused = try demo.run(["set", "v", "1", bad])
            #expect(refused.code == 65, "\(bad): \(refused)")
        }
        #expect(try demo.dump() == before)
    }

    @Test func anInferredFormSavesPastAStoredValueItWouldNotAccept() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let set = try demo.run(["set", "t", "1", "city=Kraków"])
        #expect(set.code == 0, "\(set)")
        #expect(try demo.query("SELECT quote(email), city FROM t") == "'not-an-email'|Kraków\n")
    }

    @Test func aNumberIsAChoicesValueNeverItsPosition() throws {
        let demo = try database()
        for (typed, stored) in [("2", "2"), ("5", "5"), ("0", "0")] {
            let set = try demo.run(["set", "tasks", "1", "prio=\(typed)"])
            #expect(set.code == 0, "\(set)")
            #expect(try demo.query("SELECT prio FROM tasks") == "\(stored)\n")
        }
        let before = try demo.dump()
        for typed in ["3", "4"] {
            let set = try demo.run(["set", "tasks", "1", "prio=\(typed)"])
            #expect(set.code == 65, "\(set)")
            #expect(set.errors.contains("\"\(typed)\" is not one of the choices"))
            let new = try demo.run(["new", "tasks", "title=next", "prio=\(typed)"])
            #expect(new.code == 65, "\(new)")
        }
        #expect(try demo.dump() == before)
    }

    @Test func anImportedChoiceIsItsValue() throws {
        let demo = try database()
        let file = try demo.file("tasks.ndjson", """
        {"id": 2, "title": "a", "prio": "2"}
        {"id": 3, "title": "b", "prio": 5}

        """)
        let run = try demo.run(["import", "tasks", file])
        #expect(run.code == 0, "\(run)")
        #expect(try demo.query("SELECT id, prio FROM tasks WHERE id > 1") == "2|2\n3|5\n")
        let bad = try demo.file("bad.ndjson", "{\"id\": 4, \"title\": \"c\", \"prio\": \"4\"}\n")
        let refused = try demo.run(["import", "tasks", bad])
        #expect(refused.code == 65, "\(refused)")
    }
}
