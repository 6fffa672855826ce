import FormStoreTestSupport
import Foundation
import Testing

/// `history` lists what saves changed, who made them and through what;
/// `revert` puts values back through a session, refusing what is invalid or
/// conflicts with a later change.
@Suite struct HistoryCommandTests {
    /// An application's database that `formstore init` was run on (history lives in it).
    func database() throws -> DemoDatabase {
        let db = try DemoDatabase(sql: """
            CREATE TABLE plans (id INTEGER PRIMARY KEY, name TEXT NOT NULL, seats INTEGER, token TEXT);
            INSERT INTO plans VALUES (1, 'free', 1, 'abc');
            """)
        #expect(try db.run(["init"]).code == 0)
        return db
    }

    @Test func historyListsEachSavedFieldWithWhoAndThroughWhat() throws {
        let db = try database()
        #expect(try db.run(["set", "plans", "1", "name=team", "seats=5"]).code == 0)
        #expect(try db.run(["set", "plans", "1", "seats=7"]).code == 0)
        #expect(try db.run(["set", "plans", "1", "--json"], stdin: #"{"seats": 8}"#).code == 0)
        let listed = try db.run(["history", "plans", "1", "--format", "json"])
        #expect(listed.code == 0, "\(listed)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["field"] as? String } == ["name", "seats", "seats", "seats"])
        #expect(rows.map { $0["change"] as? Int } == [1, 1, 2, 3])
        #expect(rows.allSatisfy { $0["via"] as? String == "command" && ($0["actor"] as? String)?.isEmpty == false })
        #expect(rows.last?["old"] as? Int == 7 && rows.last?["new"] as? Int == 8)
        let seats = try db.run(["history", "plans", "1", "--field", "seats"])
        #expect(seats.output.split(separator: "\n").count == 4, "\(seats)")
        #expect(try db.run(["history", "plans", "1", "--field", "colour"]).code == 64)
    }

    /// A deleted record's history is still listed; a key no record ever had is not found (66).
    @Test func aKeyNoRecordEverHadIsNotFound() throws {
        let db = try database()
        let none = try db.run(["history", "plans", "99"])
        #expect(none.code == 66 && none.errors == "formstore: plans: no record with key 99\n", "\(none)")
        #expect(try db.run(["history", "plans", "1"]).code == 0)
        #expect(try db.run(["set", "plans", "1", "seats=2"]).code == 0)
        #expect(try db.run(["delete", "plans", "1", "--yes"]).code == 0)
        let deleted = try db.run(["history", "plans", "1"])
        #expect(deleted.code == 0 && deleted.output.contains("seats"), "\(deleted)")
    }

    /// A key typed in another case names the same record in a `COLLATE
    /// NOCASE` key column, for `history` and `revert` as for `show` and
    /// `set`: history is kept under the key the row holds.
    @Test func aKeyTypedInAnotherCaseFindsTheRecordsHistory() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE codes (code TEXT PRIMARY KEY COLLATE NOCASE, label TEXT) WITHOUT ROWID;
            INSERT INTO codes VALUES ('Alpha', 'first');
            """)
        #expect(try db.run(["init"]).code == 0)
        #expect(try db.run(["set", "codes", "alpha", "label=second"]).code == 0)
        #expect(try db.run(["set", "codes", "ALPHA", "label=third"]).code == 0)
        for typed in ["Alpha", "alpha", "ALPHA"] {
            let listed = try db.run(["history", "codes", typed, "--format", "json"])
            #expect(listed.code == 0, "\(listed)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
            #expect(rows.map { $0["new"] as? String } == ["second", "third"], "\(typed)")
        }
        let reverted = try db.run(["revert", "codes", "aLpHa", "--change", "2"])
        #expect(reverted.code == 0, "\(reverted)")
        #expect(try db.query("SELECT code, label FROM codes") == "Alpha|second\n")
    }

    @Test func revertSavesThePreviousValuesAsANewChange() throws {
        let db = try database()
        #expect(try db.run(["set", "plans", "1", "name=team"]).code == 0)
        #expect(try db.run(["set", "plans", "1", "seats=9"]).code == 0)
        let reverted = try db.run(["revert", "plans", "1", "--change", "1"])
        #expect(reverted.code == 0, "\(reverted)")
        #expect(try db.query("SELECT name, seats FROM plans") == "free|9\n")
        let all = try db.run(["revert", "plans", "1", "--to", "2000-01-01"])
        #expect(all.code == 0, "\(all)")
        #expect(try db.query("SELECT name, seats FROM plans") == "free|1\n")
        #expect(try db.query("SELECT count(*) FROM formstore_changes") == "4\n")
    }

    /// A revert puts back the bytes the history kept, not the value written
    /// anew in the column's form: a bool's 2 stays 2 (not 1), JSON text keeps
    /// its spacing, and the row's dump is what it was before the change.
    @Test func revertPutsBackTheStoredFormTheHistoryKept() throws {
        let db = try DemoDatabase(sql: #"""
            CREATE TABLE prefs (id INTEGER PRIMARY KEY, active BOOLEAN, doc JSON, note TEXT);
            INSERT INTO prefs VALUES (1, 2, '{"a": 1,  "b": [1, 2]}', 'x');
            """#)
        #expect(try db.run(["init"]).code == 0)
        let before = try db.query("SELECT quote(active), quote(doc), quote(note) FROM prefs")
        #expect(try db.run(["set", "prefs", "1", "active=no", #"doc={"a":2}"#, "note=y"]).code == 0)
        #expect(try db.query("SELECT quote(active) FROM prefs") == "0\n")
        let reverted = try db.run(["revert", "prefs", "1", "--change", "1"])
        #expect(reverted.code == 0, "\(reverted)")
        #expect(try db.query("SELECT quote(active), quote(doc), quote(note) FROM prefs") == before)
    }

    /// A value the column held that its field refuses as typed (a REAL in an
    /// INTEGER column, text in a REAL one) goes back as it was: the revert was
    /// refused ("qty cannot hold a number"), so such a change could not be undone.
    @Test func revertPutsBackAValueTheFieldWouldRefuseAsTyped() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, qty INTEGER, price REAL);
            INSERT INTO t VALUES (1, 2.5, 'n/a');
            """)
        #expect(try db.run(["init"]).code == 0)
        let before = try db.query("SELECT quote(qty), quote(price) FROM t")
        #expect(try db.run(["set", "t", "1", "qty=3", "price=4"]).code == 0)
        let reverted = try db.run(["revert", "t", "1", "--change", "1"])
        #expect(reverted.code == 0, "\(reverted)")
        #expect(try db.query("SELECT quote(qty), quote(price) FROM t") == before)
    }

    /// Text that reads as a number in an untyped column goes back as text,
    /// though the column holds NULL when reverted (where a value typed would
    /// be stored as a number): the history's stored form is always used.
    @Test func revertPutsBackNumberLikeTextInAnUntypedColumnAsText() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, a, b);
            INSERT INTO t VALUES (1, '12', '9007199254740993');
            """)
        #expect(try db.run(["init"]).code == 0)
        let before = try db.query("SELECT quote(a), typeof(a), quote(b), typeof(b) FROM t")
        #expect(try db.run(["set", "t", "1", "a:=null", "b:=null"]).code == 0)
        let reverted = try db.run(["revert", "t", "1", "--change", "1"])
        #expect(reverted.code == 0, "\(reverted)")
        #expect(try db.query("SELECT quote(a), typeof(a), quote(b), typeof(b) FROM t") == before)
    }

    /// A generated column's change is in the history, and a revert puts back
    /// the columns it is computed from: it follows them. Before, the revert
    /// tried to write it and was refused ("total is read-only").
    @Test func revertLeavesAGeneratedColumnToFollow() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE things (id INTEGER PRIMARY KEY, price NUMERIC,
                                 total NUMERIC GENERATED ALWAYS AS (price * 2) STORED,
                                 plus NUMERIC GENERATED ALWAYS AS (price + 1) VIRTUAL);
            INSERT INTO things (id, price) VALUES (1, 10);
            """)
        #expect(try db.run(["init"]).code == 0)
        #expect(try db.run(["set", "things", "1", "price=11"]).code == 0)
        #expect(try db.run(["history", "things", "1"]).output.contains("total  20   22"))
        let reverted = try db.run(["revert", "things", "1", "--change", "1"])
        #expect(reverted.code == 0 && reverted.errors.isEmpty, "\(reverted)")
        #expect(try db.query("SELECT price, total, plus FROM things") == "10|20|11\n")
    }

    @Test func revertRefusesAConflictOrAnInvalidValue() throws {
        let db = try database()
        #expect(try db.run(["set", "plans", "1", "seats=2"]).code == 0)
        #expect(try db.run(["set", "plans", "1", "seats=3"]).code == 0)
        // Change 1's field was changed again by change 2: putting it back would undo that too.
        let conflicting = try db.run(["revert", "plans", "1", "--change", "1"])
        #expect(conflicting.code == 75, "\(conflicting)")
        // Changed outside FormStore since: also a conflict.
        try db.query("UPDATE plans SET seats = 4")
        let outside = try db.run(["revert", "plans", "1", "--change", "2"])
        #expect(outside.code == 75)
        // No "try again": a retry meets the same value.
        #expect(outside.errors == "formstore: plans 1: seats no longer holds what its history says (someone "
                + "changed it outside FormStore, or history was not kept), and the revert would overwrite that; "
                + "nothing was saved (set the field to what you want instead)\n"
                + "  seats: its history says it holds \"3\", it holds \"4\", the revert would put back \"2\"\n",
                "\(outside)")
        #expect(try db.query("SELECT seats FROM plans") == "4\n")
        // A new record's first change put a value where there was none; the name cannot go back to none.
        #expect(try db.run(["new", "plans", "name=pro"]).code == 0)
        let invalid = try db.run(["revert", "plans", "2", "--to", "2000-01-01"])
        #expect(invalid.code == 65, "\(invalid)")
        #expect(try db.query("SELECT name FROM plans WHERE id = 2") == "pro\n")
        #expect(try db.run(["revert", "plans", "1"]).code == 64)
    }

    /// Reverting an older change whose field a later change wrote again
    /// names that change (it is no one else's), and a field the form lost
    /// since is left out, said so.
    @Test func revertingAnOlderChangeNamesTheLaterOne() throws {
        let db = try database()
        for name in ["team", "pro", "team"] { #expect(try db.run(["set", "plans", "1", "name=\(name)"]).code == 0) }
        let reverted = try db.run(["revert", "plans", "1", "--change", "2"])
        #expect(reverted.code == 75, "\(reverted)")
        #expect(reverted.errors.contains("name was changed again by change 3 since change 2"), "\(reverted)")
        // With --format json, the refusal's outcome as any refused save prints it.
        let json = try db.run(["revert", "plans", "1", "--change", "2", "--format", "json"])
        #expect(json.code == 75 && json.output.contains(#""outcome":"conflict""#), "\(json)")
        #expect(try db.query("SELECT name FROM plans WHERE id = 1") == "team\n")
        #expect(try db.run(["revert", "plans", "1", "--change", "3"]).code == 0)
        #expect(try db.run(["set", "plans", "1", "seats=9"]).code == 0)
        try db.query("ALTER TABLE plans RENAME COLUMN seats TO places")
        let renamed = try db.run(["revert", "plans", "1", "--change", "5"])
        #expect(renamed.code == 0, "\(renamed)")
        #expect(renamed.errors.contains("seats is no longer a field of plans: it was left out"), "\(renamed)")
    }

    @Test func historyKeepsWhatTheEnvironmentSays() throws {
        let db = try database()
        for seats in 2...5 {
            #expect(try db.run(["set", "plans", "1", "seats=\(seats)"], environment: ["FORMSTORE_HISTORY_KEEP": "2"]).code == 0)
        }
        #expect(try db.query("SELECT group_concat(new_value) FROM formstore_change_fields") == "4,5\n")
        // A count and an age at most once each, and something: else a usage error.
        for refused in ["lots", "", "100,100", "100,90d,5", "90d,30d", ",", "-1", "99999999999999d"] {
            #expect(try db.run(["history", "plans", "1"], environment: ["FORMSTORE_HISTORY_KEEP": refused]).code == 64, "\(refused)")
        }
        #expect(try db.run(["history", "plans", "1"], environment: ["FORMSTORE_HISTORY_KEEP": "90d, 100"]).code == 0)
        // 0 keeps each record's latest save, as docs/fidelity.md says.
        #expect(try db.run(["set", "plans", "1", "seats=6"], environment: ["FORMSTORE_HISTORY_KEEP": "0"]).code == 0)
        #expect(try db.query("SELECT group_concat(new_value) FROM formstore_change_fields") == "6\n")
        #expect(try db.run(["set", "plans", "1", "seats=7"], environment: ["FORMSTORE_HISTORY_KEEP": "0d"]).code == 0)
        #expect(try db.query("SELECT group_concat(new_value) FROM formstore_change_fields") == "7\n")
    }
}

/// `import` records each record it writes in the history, as a save by the
/// login name through `command`; a dry run or a refused import records nothing.
@Suite struct ImportHistoryTests {
    @Test func importedRecordsHaveAHistoryThatHistoryShows() throws {
        let db = try HistoryCommandTests().database()
        let imported = try db.run(["import", "plans", "--format", "csv"], stdin: """
            id,name,seats
            1,team,5
            2,pro,10
            """)
        #expect(imported.code == 0, "\(imported)")
        let updated = try db.run(["history", "plans", "1", "--format", "json"])
        #expect(updated.code == 0, "\(updated)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(updated.output.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["field"] as? String } == ["name", "seats"])
        #expect(rows.map { $0["old"] as? String ?? ($0["old"] as? Int).map(String.init) } == ["free", "1"])
        #expect(rows.map { $0["new"] as? String ?? ($0["new"] as? Int).map(String.init) } == ["team", "5"])
        #expect(rows.allSatisfy { $0["via"] as? String == "command" && ($0["actor"] as? String)?.isEmpty == false })
        let inserted = try db.run(["history", "plans", "2", "--format", "json"])
        let insertedRows = try #require(try JSONSerialization.jsonObject(with: Data(inserted.output.utf8)) as? [[String: Any]])
        #expect(insertedRows.map { $0["field"] as? String } == ["id", "name", "seats"])
        // An import that changes nothing, or only pretends to, adds nothing.
        #expect(try db.run(["import", "plans", "--format", "csv"], stdin: "id,name,seats\n1,team,5\n").code == 0)
        #expect(try db.run(["import", "plans", "--format", "csv", "--dry-run"], stdin: "id,name,seats\n1,gold,5\n").code == 0)
        #expect(try db.query("SELECT count(*) FROM formstore_changes") == "2\n")
    }

    /// On a database nobody ran `init` on, and with no sidecar yet, saves keep
    /// no history: `history` says so, rather than an empty list that reads as
    /// "never changed". Once `init` has run, it says nothing of the kind.
    @Test func historySaysWhenNoneIsKept() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE plans (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO plans VALUES (1, 'free');
            """)
        #expect(try db.run(["set", "plans", "1", "name=team"]).code == 0)
        let none = try db.run(["history", "plans", "1"])
        #expect(none.code == 0, "\(none)")
        #expect(none.errors.hasPrefix("formstore: no history is kept for this database yet"), "\(none)")
        #expect(try db.run(["init"]).code == 0)
        let empty = try db.run(["history", "plans", "1"])
        #expect(empty.code == 0 && empty.errors.isEmpty, "\(empty)")
    }
}
