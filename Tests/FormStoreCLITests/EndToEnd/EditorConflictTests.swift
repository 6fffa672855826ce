import FormStoreTestSupport
import Foundation
import Testing

/// Someone else saves while the document is open in the editor: a field
/// only they changed takes their value, and a field both changed is shown
/// again with base, yours and theirs before yours is saved over theirs.
@Suite struct EditorConflictTests {
    @Test func aFieldBothChangedIsShownBeforeYoursIsSaved() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, title TEXT, note TEXT);
            INSERT INTO t VALUES (1, 'orig', 'n');
            """)
        // First round: another writer saves both fields, the person changes the title.
        // Second round: a copy taken, and the CONFLICT lines deleted (yours stands).
        let editor = try demo.file("editor.sh", """
            if grep -q '^title: orig' "$1"; then
                sqlite3 '\(demo.path)' "UPDATE t SET title = 'theirs', note = 'm' WHERE id = 1"
                sed -i 's/^title: .*/title: mine/' "$1"
            else
                cp "$1" '\(demo.scratch.path)/second.txt'
                sed -i '/^# CONFLICT/d' "$1"
            fi
            """)
        let run = try demo.run(["edit", "t", "1", "--editor"], environment: ["EDITOR": "/bin/sh '\(editor)'"])
        #expect(run.code == 0, "\(run)")
        #expect(run.errors.contains("Also changed by someone else: title: was orig, yours mine, theirs theirs"), "\(run)")
        let second = try String(contentsOfFile: demo.scratch.path + "/second.txt", encoding: .utf8)
        #expect(second.contains("#   theirs: theirs\ntitle: mine\n"), "\(second)")
        #expect(second.contains("\nnote: m\n"), "\(second)")
        #expect(try demo.query("SELECT title, note FROM t") == "mine|m\n")
    }
}
