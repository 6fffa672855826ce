import FormStoreTestSupport
import Foundation
import Testing

/// `edit FORM KEY --editor --children` through the built binary: the child
/// rows as blocks in the document, read back as adds, edits, removals and moves.
@Suite struct EditorChildRowsTests {
    /// Runs `edit` with `script` (a `/bin/sh` script given the document's path) as `$EDITOR`;
    /// every document the editor was given is kept as `shown-N.txt`.
    private func edit(_ demo: DemoDatabase, _ form: String, _ key: String, script: String,
                      children: Bool = true) throws -> BinaryRun {
        let editor = try demo.file("editor.sh", """
            n=$(ls "\(demo.scratch.path)" | grep -c '^shown-')
            cp "$1" "\(demo.scratch.path)/shown-$n.txt"
            \(script)
            """)
        return try demo.run(["edit", form, key, "--editor"] + (children ? ["--children"] : []),
                            environment: ["EDITOR": "/bin/sh '\(editor)'"])
    }

    private func shown(_ demo: DemoDatabase, _ n: Int) throws -> String {
        try String(contentsOfFile: demo.scratch.path + "/shown-\(n).txt", encoding: .utf8)
    }

    @Test func theDocumentShowsEachRowAsABlock() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try edit(demo, "invoice", "1", script: "true")
        #expect(run.code == 0, "\(run)")
        #expect(run.errors.contains("Edit cancelled, no changes made."))
        let document = try shown(demo, 0)
        #expect(document.contains("\ncustomer: Ann\n"))
        #expect(document.contains("""
            [invoice_line]
            [invoice_line r1]
            # id: 10
            item: Tea
            amount: 2.5
            [invoice_line r2]
            # id: 11
            item: Cake
            amount: 3.5

            """))
    }

    @Test func rowsEditedRemovedAndAddedAreSavedWithTheParent() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try edit(demo, "invoice", "1", script: #"""
            sed -i 's/^customer: Ann$/customer: Ann Lee/; s/^amount: 2.5$/amount: 3/; /^\[invoice_line r2\]$/,/^amount: 3.5$/d' "$1"
            printf '[invoice_line new]\nitem: Jam\namount: 1.5\n' >> "$1"
            """#)
        #expect(run.code == 0, "\(run)")
        #expect(run.errors.contains("Saved invoice 1"))
        #expect(try demo.query("SELECT customer FROM invoice WHERE id = 1") == "Ann Lee\n")
        #expect(try demo.query("SELECT item, amount FROM invoice_line WHERE invoice_id = 1 ORDER BY item")
                == "Jam|1.5\nTea|3\n")
    }

    /// A draft of invoice 1 (customer Zed, line 10's amount 3.75) whose
    /// customer and cell someone else changed since (Kim, 9).
    private func draftChangedSince() throws -> DemoDatabase {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let failed = try edit(demo, "invoice", "1", script: #"""
            sed -i 's/^customer: Ann$/customer: Zed/; s/^amount: 2.5$/amount: 3.75/' "$1"; exit 1
            """#)
        #expect(failed.code != 0, "\(failed)")
        try demo.query("UPDATE invoice SET customer = 'Kim' WHERE id = 1; UPDATE invoice_line SET amount = 9 WHERE id = 10")
        return demo
    }

    /// A draft's cell someone else changed since is no field: restored, the
    /// draft's value is kept and the person told, and a conflict on the
    /// parent is still shown; nothing typed is lost from the draft.
    @Test func aDraftsCellChangedSinceKeepsTheTypedValue() throws {
        let demo = try draftChangedSince()
        let reopened = try edit(demo, "invoice", "1", script: "true")
        #expect(reopened.code == 75, "\(reopened)")
        #expect(reopened.errors.contains("invoice_line[10].amount: was 2.5, yours 3.75, theirs 9; the document holds yours"),
                "\(reopened)")
        let document = try shown(demo, 1)
        #expect(document.contains("amount: 3.75\n"), "\(document)")
        #expect(document.contains("CONFLICT"), "\(document)")
        let drafts = try demo.run(["drafts", "--format", "json"])
        #expect(drafts.output.contains("invoice_line"), "\(drafts)")
        #expect(try demo.query("SELECT customer FROM invoice WHERE id = 1") == "Kim\n")
    }

    /// `draft restore` settles a row's cell by its path, or every row of its group by the group's key.
    @Test func draftRestoreKeepsACellsSideByItsPath() throws {
        for (choice, amount) in [("invoice_line[10].amount=theirs", "9"), ("invoice_line=mine", "3.75")] {
            let demo = try draftChangedSince()
            // A path no conflict has is refused, not passed over for `--keep`'s side.
            let misspelt = try demo.run(["draft", "restore", "invoice", "1", "--keep", "mine", "--keep-field", "invoice_line[99].amount=theirs"])
            #expect(misspelt.code == 64 && misspelt.errors.contains("no conflict of the draft is named so"), "\(misspelt)")
            let unsettled = try demo.run(["draft", "restore", "invoice", "1"])
            #expect(unsettled.code == 75 && unsettled.errors.contains("invoice_line[10].amount"), "\(unsettled)")
            let restored = try demo.run(["draft", "restore", "invoice", "1", "--keep-field", choice, "--keep-field", "customer=mine"])
            #expect(restored.code == 0, "\(restored)")
            #expect(try demo.query("SELECT customer FROM invoice WHERE id = 1") == "Zed\n")
            #expect(try demo.query("SELECT amount FROM invoice_line WHERE id = 10") == amount + "\n", "\(choice)")
        }
    }

    @Test func aBadCellReopensTheDocumentWithTheRowKept() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try edit(demo, "invoice", "1", script: #"""
            if grep -q '^# Not saved' "$1"; then
                sed -i 's/^amount: lots$/amount: 2/' "$1"
            else
                printf '[invoice_line new]\nitem: Jam\namount: lots\n' >> "$1"
            fi
            """#)
        #expect(run.code == 0, "\(run)")
        let reopened = try shown(demo, 1)
        #expect(reopened.hasPrefix("# Not saved: fix the errors below, then save and close the editor again.\n"))
        #expect(reopened.contains("invoice_line[#3].amount: "))
        // The added row is the session's now: saving again does not add it twice.
        #expect(reopened.contains("[invoice_line r3]\nitem: Jam\namount: lots\n"))
        #expect(!reopened.contains("\n[invoice_line new]\n"))
        #expect(try demo.query("SELECT item, amount FROM invoice_line WHERE invoice_id = 1 ORDER BY id")
                == "Tea|2.5\nCake|3.5\nJam|2\n")
    }

    @Test func anAbandonedEditKeepsItsRowsInTheDraft() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try edit(demo, "invoice", "1", script: #"""
            grep -q '^# Not saved' "$1" || printf '[invoice_line new]\nitem: Marmalade\namount: lots\n' >> "$1"
            """#)
        #expect(run.code == 65, "\(run)")
        #expect(run.errors.contains("Edit abandoned"))
        #expect(try demo.query("SELECT count(*) FROM invoice_line") == "2\n")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts WHERE payload LIKE '%Marmalade%'") == "1\n")
    }

    /// Ended by a signal while the editor is open, an edit keeps the rows
    /// the document changed (one edited, one removed, one added, one cell that
    /// does not parse) in its draft with the parent's line, and restoring the
    /// draft brings them all back. Before, only the parent's lines were kept.
    @Test func aSignalDuringTheEditorKeepsTheDocumentsRows() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let before = try demo.dump()
        let temporary = demo.scratch.path + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        guard let run = try demo.interruptEditor(["edit", "invoice", "1", "--editor", "--children"], script: #"""
            sed -i 's/^customer: Ann$/customer: Ann Lee/; s/^amount: 2.5$/amount: 3/; /^\[invoice_line r2\]$/,/^amount: 3.5$/d' "$1"
            printf '[invoice_line new]\nitem: Jam\namount: 1.5\n[invoice_line new]\nitem: Honey\namount: lots\n' >> "$1"
            """#, signal: SIGTERM, temporary: temporary) else { return }
        #expect(run.code == 1 && run.errors.contains("Interrupted"), "\(run.errors)")
        #expect(try demo.dump() == before)
        let shown = try demo.run(["draft", "show", "invoice", "1"])
        #expect(shown.output.contains("customer      Ann       Ann Lee   Ann\ninvoice_line  2 row(s)  3 row(s)  2 row(s)\n"), "\(shown)")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts WHERE payload LIKE '%Jam%' AND payload LIKE '%lots%'") == "1\n")
        // The cell that did not parse is typed again when the draft comes back into the editor.
        let edited = try edit(demo, "invoice", "1", script: #"sed -i 's/^amount: lots$/amount: 4/' "$1""#)
        #expect(edited.code == 0 && edited.errors.contains("Saved invoice 1"), "\(edited)")
        #expect(try demo.query("SELECT customer FROM invoice WHERE id = 1") == "Ann Lee\n")
        #expect(try demo.query("SELECT item, amount FROM invoice_line WHERE invoice_id = 1 ORDER BY id")
                == "Tea|3\nJam|1.5\nHoney|4\n")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "0\n")
    }

    @Test func unknownRowFieldsAreReportedByLine() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try edit(demo, "invoice", "1", script: #"""
            grep -q '^# Not saved' "$1" || sed -i 's/^item: Tea$/itme: Tea/' "$1"
            """#)
        #expect(run.code == 65, "\(run)")
        let reopened = try shown(demo, 1)
        #expect(reopened.contains("unknown field 'itme' in invoice_line"))
        #expect(try demo.query("SELECT item FROM invoice_line WHERE id = 10") == "Tea\n")
    }

    /// A row's block copied to add a row, its header left as it was, states
    /// that row twice: refused by line, where the last block silently
    /// overwrote the first row.
    @Test func aRowGivenTwiceIsRefused() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try edit(demo, "invoice", "1", script: #"""
            grep -q '^# Not saved' "$1" || printf '[invoice_line r1]\nitem: Copy\namount: 9\n' >> "$1"
            """#)
        #expect(run.code == 65, "\(run)")
        #expect(try shown(demo, 1).contains("[invoice_line r1] is given twice: head a row to add with [invoice_line new]"))
        #expect(try demo.query("SELECT item, amount FROM invoice_line WHERE invoice_id = 1 ORDER BY id") == "Tea|2.5\nCake|3.5\n")
    }

    /// A draft holding only child rows (kept when the prompts ended) is named
    /// by its group, and restored with its rows: by `draft restore`, and by
    /// an edit without `--children`, which opens with them. Before, both said
    /// they saved and dropped the rows with the draft.
    @Test func aDraftOfRowsIsRestoredWithItsRows() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        func keepRowDraft(_ item: String) throws {
            let ended = try demo.run(["edit", "invoice", "1", "--children"], stdin: "\n\ne 1\n\(item)\n")
            #expect(ended.code == 1 && ended.errors.contains("kept as a draft"), "\(ended)")
        }
        try keepRowDraft("Green tea")
        let listed = try demo.run(["drafts"])
        #expect(listed.output.contains(" invoice_line "), "\(listed)")
        let restored = try demo.run(["draft", "restore", "invoice", "1"])
        #expect(restored.code == 0, "\(restored)")
        #expect(try demo.query("SELECT item FROM invoice_line WHERE id = 10") == "Green tea\n")
        try keepRowDraft("Black tea")
        let edited = try edit(demo, "invoice", "1", script: "true", children: false)
        #expect(edited.code == 0 && edited.errors.contains("Saved invoice 1"), "\(edited)")
        #expect(try demo.query("SELECT item FROM invoice_line WHERE id = 10") == "Black tea\n")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "0\n")
    }

    /// A line that does not read abandons the edit with the document's other
    /// changes kept in the draft: the parent's beside a bad row line, and the
    /// rows' (one edited, one removed, one added) beside a bad parent line,
    /// which restoring the draft saves. Before, the first were lost with the
    /// draft, then the second.
    @Test func aBadLineKeepsTheDocumentsOtherChangesInTheDraft() throws {
        let parent = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let rows = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let scripts = [
            (parent, #"sed -i 's/^customer: Ann$/customer: Ann Lee/; s/^item: Tea$/item Tea/' "$1""#),
            (rows, #"""
                sed -i 's/^customer: Ann$/customer Ann/; s/^item: Tea$/item: Green tea/; /^\[invoice_line r2\]$/,$d' "$1"
                printf '[invoice_line new]\nitem: Jam\namount: 2\n' >> "$1"
                """#),
        ]
        for (demo, script) in scripts {
            let run = try edit(demo, "invoice", "1", script: "grep -q '^# Not saved' \"$1\" && exit 0\n" + script)
            #expect(run.code == 65 && run.errors.contains("your changes are kept as a draft"), "\(run)")
            #expect(try demo.query("SELECT customer FROM invoice WHERE id = 1") == "Ann\n")
            #expect(try demo.query("SELECT item FROM invoice_line WHERE invoice_id = 1 ORDER BY id") == "Tea\nCake\n")
        }
        #expect(try parent.querySidecar("SELECT count(*) FROM formstore_drafts WHERE payload LIKE '%Ann Lee%'") == "1\n")
        #expect(try rows.querySidecar("SELECT count(*) FROM formstore_drafts WHERE payload LIKE '%Green tea%' AND payload LIKE '%Jam%'") == "1\n")
        let restored = try rows.run(["draft", "restore", "invoice", "1"])
        #expect(restored.code == 0, "\(restored)")
        #expect(try rows.query("SELECT item, amount FROM invoice_line WHERE invoice_id = 1 ORDER BY id") == "Green tea|2.5\nJam|2\n")
    }

    /// A group whose key holds a space (a table named `order lines`) is read back from its own headers.
    @Test func aGroupNamedWithASpaceIsReadBack() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE "my orders" (id INTEGER PRIMARY KEY, who TEXT);
            CREATE TABLE "order lines" (id INTEGER PRIMARY KEY, oid INTEGER REFERENCES "my orders"(id), item TEXT);
            INSERT INTO "my orders" VALUES (1, 'A'); INSERT INTO "order lines" VALUES (1, 1, 'x');
            """)
        let run = try edit(demo, "my orders", "1", script: #"sed -i 's/^who: A$/who: B/; s/^item: x$/item: y/' "$1""#)
        #expect(run.code == 0, "\(run)")
        #expect(try shown(demo, 0).contains("[order lines]\n[order lines r1]\n"))
        #expect(try demo.query(#"SELECT who FROM "my orders"; SELECT item FROM "order lines""#) == "B\ny\n")
    }

    /// A save the schema refuses (a CHECK) reopens the document with the
    /// refusal, as a rule's error does; left so, the edit is abandoned into a draft.
    @Test func aSaveTheSchemaRefusesReopensTheDocument() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE c (id INTEGER PRIMARY KEY, label TEXT CHECK (length(label) < 10));
            INSERT INTO c VALUES (1, 'ok');

            """)
        let run = try edit(demo, "c", "1", script: #"sed -i 's/^label:.*/label: far too long label/' "$1""#)
        #expect(run.code == 65)
        let reopened = try shown(demo, 1)
        #expect(reopened.hasPrefix("# Not saved: fix the errors below, then save and close the editor again.\n"
                                   + "#   label: CHECK constraint failed: length(label) < 10\n"), "\(reopened)")
        #expect(run.errors.contains("Edit abandoned: your changes are kept as a draft."), "\(run)")
        #expect(try demo.query("SELECT label FROM c") == "ok\n")
    }
}
