import FormStoreTestSupport
import Foundation
import Testing

/// `edit FORM KEY --plain --children` through the built binary: after the
/// parent's fields, a menu per group to list, add, edit and remove rows.
@Suite struct PromptChildRowsTests {
    @Test func rowsAreAddedEditedAndRemovedFromTheMenu() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        // customer, total: keep; then edit row 1's amount, remove row 2, add Jam; done; save.
        let run = try demo.run(["edit", "invoice", "1", "--plain", "--children"],
                               stdin: "\n\nl\ne 1\n\n3\nr 2\na\n\nJam\n1.5\nd\ny\n")
        #expect(run.code == 0, "\(run)")
        #expect(run.errors.contains("  1. item: Tea, amount: 2.5\n  2. item: Cake, amount: 3.5\n"), "\(run.errors)")
        #expect(run.errors.contains("  Removed row 2."))
        // The changes listed before the question name the rows' (the list was empty).
        #expect(run.errors.contains("Changes:\n  invoice_line: rows 1 edited, 1 added, 1 removed\nSave changes?"), "\(run.errors)")
        #expect(run.errors.contains("Saved: "))
        #expect(try demo.query("SELECT item, amount FROM invoice_line WHERE invoice_id = 1 ORDER BY item")
                == "Jam|1.5\nTea|3\n")
    }

    @Test func aCellIsParsedLikeAField() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try demo.run(["edit", "invoice", "1", "--plain", "--children"],
                               stdin: "\n\ne 2\n\nlots\n4\nd\ny\n")
        #expect(run.code == 0, "\(run)")
        #expect(run.errors.contains("  ! "), "\(run.errors)")
        #expect(try demo.query("SELECT amount FROM invoice_line WHERE id = 11") == "4\n")
    }

    /// A cell takes `\N` and `""`, and a space clears it to its column's
    /// "nothing", as a field does: a cleared text cell stored `''` where its
    /// column allows NULL.
    @Test func aCellIsClearedAsAFieldIs() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE c (id INTEGER PRIMARY KEY, p_id INTEGER REFERENCES p(id), a TEXT, b TEXT);
            INSERT INTO p VALUES (1, 'P'); INSERT INTO c VALUES (10, 1, 'x', 'y');
            """)
        // name: keep; edit row 1: a cleared by a space, b given "".
        let run = try demo.run(["edit", "p", "1", "--plain", "--children"], stdin: "\ne 1\n \n\"\"\nd\ny\n")
        #expect(run.code == 0, "\(run)")
        #expect(try demo.query("SELECT quote(a), quote(b) FROM c") == "NULL|''\n", "\(run.errors)")
    }

    /// Enter after a refused cell puts back what the cell held, as for a
    /// field: it kept the refused text, and the save was refused for it.
    @Test func enterAfterARefusedCellPutsBackItsValue() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try demo.run(["edit", "invoice", "1", "--plain", "--children"],
                               stdin: "\n\ne 2\n\nlots\n\nd\n")
        #expect(run.errors.contains("amount (required) [3.5]: \n  ! amount is not a number\namount (required) [3.5]: \n"), "\(run.errors)")
        #expect(run.errors.contains("No changes made."), "\(run.errors)")
        #expect(try demo.query("SELECT amount FROM invoice_line WHERE id = 11") == "3.5\n")
    }

    @Test func theEndOfInputKeepsTheRowsAsADraft() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try demo.run(["edit", "invoice", "1", "--plain", "--children"], stdin: "\n\na\n\nMarmalade\n")  // id: keep, item, then the input ends
        #expect(run.code == 1, "\(run)")
        #expect(run.errors.contains(" edit invoice 1 --children  (the draft is offered)"), "\(run.errors)")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts WHERE payload LIKE '%Marmalade%'") == "1\n")
        #expect(try demo.query("SELECT count(*) FROM invoice_line") == "2\n")
        // `draft show` lists what the rows were given, under the counts; it showed the counts alone.
        let shown = try demo.run(["draft", "show", "invoice", "1"])
        #expect(shown.output.hasSuffix("\ninvoice_line[#3] (new): item: Marmalade\n"), "\(shown)")
    }
}
