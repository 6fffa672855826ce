import FormCore
import FormStoreTestSupport
import Foundation
import Testing

/// Messages a new user met that named the wrong thing, or nothing: each now
/// says what was wrong in the user's own terms, with the documented exit code.
@Suite struct MessageWordingTests {
    /// A field whose name holds a backslash is suggested as it is typed too.
    @Test func aSuggestedFieldIsNamedAsItIsTyped() throws {
        let demo = try DemoDatabase(sql: #"CREATE TABLE t (id INTEGER PRIMARY KEY, "x\y" TEXT); INSERT INTO t VALUES (1, 'a');"#)
        let run = try demo.run(["set", "t", "1", #"x\y=4"#])
        #expect(run.code == 64)
        #expect(run.errors.hasPrefix(#"Error: form t has no field 'xy'. Did you mean 'x\y' (typed x\\y)?"#), "\(run)")
        #expect(try demo.run(["set", "t", "1", #"x\\y=4"#]).code == 0)
    }

    /// `--keep-field` names its own syntax, not `set`'s.
    @Test func keepFieldNamesItsOwnSyntax() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["draft", "restore", "signup", "1", "--keep-field", "age"])
        #expect(run.code == 64)
        #expect(run.errors.hasPrefix("Error: The value 'age' is invalid for '--keep-field <field=side>': "
                                     + "expected FIELD=mine or FIELD=theirs.\n"), "\(run)")
    }

    /// A draft whose record was deleted since says so, not that the record holds NULL.
    @Test func aDraftOfADeletedRecordSaysTheRecordIsGone() throws {
        let demo = try DemoDatabase()
        let draft = try DraftCommandTests.leaveDraft(in: demo, id: 1, inputs: ["age": "50"])
        try demo.query("DELETE FROM signups WHERE id = 1")
        let run = try demo.run(["draft", "show", "signup", "1"])
        #expect(run.code == 0, "\(run)")
        #expect(run.output.contains("(record deleted)"), "\(run)")
        #expect(run.errors == "The record was deleted since the draft was made: it cannot be restored "
                + "('formstore draft discard \(draft.id)' drops it).\n")
    }

    /// An import from a path that is no file names the path.
    @Test func anImportFromAFolderNamesIt() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["import", "signup", demo.scratch.path])
        #expect(run.code == 74)
        #expect(run.errors == "formstore: cannot read '\(demo.scratch.path)': Is a directory\n", "\(run)")
    }

    /// `new` on a form where nothing can be typed (a view without `INSTEAD
    /// OF` triggers) says so of the form; it named its first field read-only.
    @Test func newOnAReadOnlyViewSaysTheFormTakesNoRecords() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT);
            CREATE VIEW v AS SELECT id, a FROM t;
            """)
        let before = try demo.dump()
        let run = try demo.run(["new", "v", "a=3"])
        #expect(run.code == 65)
        #expect(run.errors == "formstore: v takes no new records: every field of it is read-only\n", "\(run)")
        #expect(try demo.dump() == before)
    }

    /// A trigger calling a function only its application defines (Firefox's
    /// `hash()` in places.sqlite) refuses the change as the schema's, 65, and
    /// says so: it was exit 1, "SQLite error 1: no such function: hash".
    @Test func aTriggerCallingAFunctionSQLiteLacksIsTheSchemas() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT, url_hash INTEGER);
            INSERT INTO moz_places VALUES (1, 'a', 0);
            CREATE TRIGGER h AFTER UPDATE OF url ON moz_places BEGIN
                UPDATE moz_places SET url_hash = hash(NEW.url) WHERE id = NEW.id; END;
            """)
        let before = try demo.dump()
        for run in [try demo.run(["set", "moz_places", "1", "url=b"]),
                    try demo.run(["import", "moz_places"], stdin: #"{"id": 1, "url": "z"}"# + "\n")] {
            #expect(run.code == 65, "\(run)")
            #expect(run.errors == "formstore: the database's schema (a trigger, view or CHECK) calls hash(), a function "
                    + "the application that made the database defines, which SQLite here does not have; nothing was changed\n",
                    "\(run)")
        }
        #expect(try demo.dump() == before)
    }

    /// A view calling such a function breaks only its own commands: `forms`
    /// lists the rest with a warning, and a delete of any row, `--children`
    /// and the web's list work. Each failed, the view described on the way.
    @Test func aViewCallingAFunctionSQLiteLacksBreaksOnlyItself() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT); INSERT INTO t VALUES (1, 'x');
            CREATE TABLE other (id INTEGER PRIMARY KEY); INSERT INTO other VALUES (1), (2);
            CREATE VIEW v AS SELECT id, a, sha3(a) AS h FROM t;
            """)
        let forms = try demo.run(["forms"])
        #expect(forms.code == 0 && forms.output.contains("other") && !forms.output.contains("v  "), "\(forms)")
        #expect(forms.errors.contains("formstore: warning: view v is not listed: it calls sha3(), a function the application "
                + "that made the database defines, which SQLite here does not have\n"), "\(forms)")
        #expect(try demo.run(["delete", "other", "1", "--yes"]).code == 0)
        #expect(try demo.run(["show", "t", "1", "--children"]).code == 0)
        let view = try demo.run(["list", "v"])
        #expect(view.code == 65 && view.errors.contains("calls sha3()"), "\(view)")
    }

    /// Two ways to edit at once is a usage error, not one of them chosen silently.
    @Test func editorAndPlainTogetherAreRefused() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["edit", "signup", "1", "--editor", "--plain"])
        #expect(run.code == 64)
        #expect(run.errors.hasPrefix("Error: --editor and --plain are two ways to edit: give one"), "\(run)")
    }

    /// A revert where no history is kept says why nothing came back, as `history` does.
    @Test func aRevertWithoutHistorySaysNoneIsKept() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["revert", "signup", "1", "--to", "2000-01-01"])
        #expect(run.code == 0, "\(run)")
        #expect(run.errors.hasPrefix("formstore: no history is kept for this database yet"), "\(run)")
    }
}
