import FormStoreTestSupport
import Foundation
import Testing

/// An editor that fails or is killed saves nothing, but what the person had
/// written in the document by then is not lost: it is kept as a draft and
/// offered by the next `edit`, as when a signal ends the command.
@Suite struct EditorFailureTests {
    static let schema = """
    CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT, year INTEGER);
    INSERT INTO album VALUES (1, 'Back in Black', 1980);
    """

    @Test func aKilledEditorsDocumentIsKeptAsADraft() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        let editor = try demo.file("editor.sh", """
            sed -i 's/^year: .*/year: 1999/' "$1"
            kill -9 $$
            """)
        let run = try demo.run(["edit", "album", "1", "--editor"], environment: ["EDITOR": "/bin/sh '\(editor)'"])
        #expect(run.code == 1, "\(run)")
        #expect(run.errors.contains("was ended by signal 9 (SIGKILL); nothing was saved\n"), "\(run)")
        #expect(run.errors.contains("your changes are kept as a draft"), "\(run)")
        #expect(try demo.dump() == before)
        // The next edit offers it; saved as shown, the draft's year is stored.
        let resumed = try demo.run(["edit", "album", "1", "--editor"], environment: ["EDITOR": "true"])
        #expect(resumed.code == 0, "\(resumed)")
        #expect(resumed.errors.contains("Restored the unsaved draft of album 1"), "\(resumed)")
        #expect(try demo.query("SELECT year FROM album") == "1999\n")
    }

    /// A refused value is named once by a field whose label is its column
    /// (an inferred form): `year is not a number`, not `year (year): year …`.
    @Test func aRefusedValueNamesItsFieldOnce() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let editor = try demo.file("editor.sh", #"sed -i 's/^year: .*/year: soon/' "$1""#)
        let run = try demo.run(["edit", "album", "1", "--editor"], environment: ["EDITOR": "/bin/sh '\(editor)'"])
        #expect(run.code == 65, "\(run)")
        #expect(run.errors.contains("nothing was saved: year is not a number\n"), "\(run)")
    }

    @Test func anEditorThatFailsWithoutChangesLeavesNoDraft() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let run = try demo.run(["edit", "album", "1", "--editor"], environment: ["EDITOR": "false"])
        #expect(run.code == 1, "\(run)")
        #expect(run.errors == "formstore: the editor 'false' exited with status 1; nothing was saved\n", "\(run)")
        #expect(try demo.run(["drafts"]).output == "id  form  key  fields  updated\n")
    }

    /// An editor that fails on a document reopened for its errors keeps what
    /// the first pass took as a draft, and says how to resume: the line was missing.
    @Test func anEditorFailingOnAReopenedDocumentSaysTheDraftIsKept() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let editor = try demo.file("editor.sh", """
            if [ -e "$1.seen" ] || [ -e "\(demo.scratch.path)/seen" ]; then exit 1; fi
            touch "\(demo.scratch.path)/seen"
            sed -i 's/^year: .*/year: 1999/' "$1"
            echo "a line without a colon" >> "$1"
            """)
        let run = try demo.run(["edit", "album", "1", "--editor"], environment: ["EDITOR": "/bin/sh '\(editor)'"])
        #expect(run.code == 1, "\(run)")
        #expect(run.errors.contains("exited with status 1; nothing was saved\nEdit abandoned: your changes are kept as a draft.\n"),
                "\(run)")
        #expect(try demo.run(["drafts"]).output.contains("album  1    year"))
    }
}
