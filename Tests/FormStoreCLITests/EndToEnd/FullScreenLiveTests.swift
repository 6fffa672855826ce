import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStoreCLI

/// The full-screen form on a live record (tmux): undo and redo keys, and
/// another process's commit reaching the open screen.
@Suite(.serialized) struct FullScreenLiveTests {
    @Test func aRunOfTypingIsUndoneAndRedoneAsOneStepAndASaveIsUndoneBySaving() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "Sign Up")
        try pane.press("Tab", "End")
        try pane.type("son")
        try pane.screen(showing: "M-z undo")
        try pane.press("M-z")
        try GoldenScreen.check(try pane.screen(showing: "Undone: Last Name: Lee."), "signup-undone")
        #expect(try pane.screen().contains("Last Name   Lee\n"))
        try pane.press("C-y")
        try GoldenScreen.check(try pane.screen(showing: "Redone: Last Name: Leeson."), "signup-redone")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: Last Name.")
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Leeson\n")
        try pane.press("M-z")
        try pane.screen(showing: "Undone and saved: Last Name: Lee.")
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Lee\n")
        try pane.press("M-z")
        try pane.screen(showing: "Nothing to undo.")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    /// The record deleted by another process while typing: the form stays
    /// open saying so (it closed by itself within a second, keys still being
    /// typed going to the shell), a save says so again and saves nothing,
    /// what is typed still goes in, and Esc ends it saying nothing was saved
    /// and where what was typed is kept.
    @Test func aRecordDeletedMeanwhileIsSaidAndEscEndsTheFormNamingTheDraft() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "2"])
        try pane.screen(showing: "Sign Up")
        try pane.press("Tab", "End")
        try pane.type("son")
        try pane.screen(showing: "1 unsaved")
        _ = try stored(database, "DELETE FROM signups WHERE id = 2")
        try pane.screen(showing: "signup 2 was deleted elsewhere: nothing saves to it; Esc leaves, keeping a draft.")
        try pane.type("s")
        try pane.screen(showing: "sons")
        try pane.press("C-s")
        try pane.screen(showing: "was deleted elsewhere")
        #expect(try stored(database, "SELECT count(*) FROM signups WHERE id = 2") == "0\n")
        try pane.press("Escape")
        let said = try pane.screen(showing: "was deleted while you edited it")
        #expect(said.replacingOccurrences(of: "\n", with: "").contains("nothing was saved; what you typed is kept as a draft: formstore draft show signup 2"), "\(said)")
        #expect(try pane.exitCode() == 66)
        let draft = try database.run(["draft", "show", "signup", "2"])
        #expect(draft.output.contains("lastName"), "\(draft)")
    }

    /// On a narrow terminal the conflict screen still shows the choice (it
    /// ran off the edge at 80 columns), and the chosen field's values in full
    /// below the table, where a cut cell hid the part that differs.
    @Test func aNarrowConflictScreenShowsTheChoiceAndTheValuesInFull() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, note TEXT);
            INSERT INTO person VALUES (3, 'A', 'a long note that somebody wrote here at first');
            """)
        let pane = try TerminalPane(database, ["edit", "person", "3"], width: 50, height: 18)
        try pane.screen(showing: "person 3")
        try pane.press("Tab", "Tab", "End")
        try pane.type("Q")
        _ = try stored(database, "UPDATE person SET note = 'someone else wrote a fairly long note here' WHERE id = 3")
        try pane.screen(showing: "!note")
        try pane.press("C-s")
        let screen = try pane.screen(showing: "Keep")
        #expect(screen.contains("› yours\n"), "\(screen)")
        #expect(screen.contains("  Yours:  a long note that somebody wrote here at\n          firstQ\n"), "\(screen)")
        try pane.press("Right")
        #expect(try pane.screen(showing: "› theirs").contains("› theirs"))
        try pane.press("Enter")
        // Theirs taken: nothing of the person's is left to save.
        #expect(try pane.screen(showing: "Conflicts resolved.").contains("note  eone else wrote a fairly long note here"))
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try stored(database, "SELECT note FROM person") == "someone else wrote a fairly long note here\n")
    }

    @Test func anotherProcessesCommitReachesTheOpenScreen() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "Sign Up")
        _ = try stored(database, "UPDATE signups SET firstName = 'Anne' WHERE id = 1")
        try GoldenScreen.check(try pane.screen(showing: "Changed by someone else: First Name → Anne."),
                               "signup-changed-by-another")
        #expect(try pane.screen().contains("First Name  Anne\n"))
        // The field shows what is stored now: typing goes on from there.
        try pane.press("End")
        try pane.type("tte")
        try pane.screen(showing: "Annette")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: First Name.")
        #expect(try stored(database, "SELECT firstName FROM signups WHERE id = 1") == "Annette\n")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    @Test func aDirtyFieldChangedUnderneathIsMarkedAndResolvedBeforeSave() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "Sign Up")
        try pane.press("Tab", "End")
        try pane.type("-Smith")
        try pane.screen(showing: "Lee-Smith")
        _ = try stored(database, "UPDATE signups SET lastName = 'Li' WHERE id = 1")
        try GoldenScreen.check(try pane.screen(showing: "Changed by someone else too: Last Name"),
                               "signup-changed-underneath")
        #expect(try pane.screen().contains("changed by someone else: Ctrl-S to choose"))
        try pane.press("C-s")
        try pane.screen(showing: "someone else changed")
        #expect(try pane.screen().contains("Lee   Lee-Smith   Li"))
        try pane.press("Right", "Enter")
        try pane.screen(showing: "Conflicts resolved.")
        #expect(try pane.screen().contains("Last Name   Li\n"))
        #expect(!(try pane.screen()).contains("changed by someone else"))
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Li\n")
    }

    /// A line changed by another process while this screen changed it too:
    /// Ctrl-S opens the conflict screen, taking theirs leaves the row as
    /// stored (no `*`, nothing unsaved), and the other cell they changed is
    /// shown as they stored it, not written back over.
    @Test func takingTheirsOnAChildRowLeavesTheRowUnmarked() throws {
        let database = try DemoDatabase(sql: FullScreenChildRowsTests.schema)
        let pane = try TerminalPane(database, ["edit", "invoice", "1", "--children"])
        try pane.screen(showing: "+ add a row")
        try pane.press("Tab", "Tab", "Tab", "Tab", "C-u")  // Tea's amount
        try pane.type("7")
        try pane.screen(showing: "1 unsaved")
        #expect(try pane.screen().contains("› *  10   Tea   7"))
        _ = try stored(database, "UPDATE invoice_line SET amount = 9, item = 'Green tea' WHERE id = 10")
        try pane.press("C-s")
        try pane.screen(showing: "someone else changed")
        #expect(try pane.screen().contains("invoice_line[10].amount   2.5   7       9"))
        try pane.press("Right", "Enter")  // take theirs
        let resolved = try pane.screen(showing: "Conflicts resolved.")
        #expect(resolved.contains("›    10   Green tea  9\n"))
        #expect(!resolved.contains("unsaved"))
        try pane.press("C-s")
        try pane.screen(showing: "No changes to save.")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try stored(database, "SELECT item, amount FROM invoice_line WHERE id = 10") == "Green tea|9\n")
    }

    /// A statement run by another process, as another application would (waiting for the lock).
    private func stored(_ database: DemoDatabase, _ sql: String) throws -> String {
        try sqlite3(database.path, [], input: ".timeout 10000\n\(sql);\n")
    }
}

/// Another process's commit to the child rows of an invoice open with
/// `--children` (tmux): the table shows it at once, and the message says which rows.
@Suite(.serialized) struct FullScreenLiveRowsTests {
    @Test func anotherProcessesCommitToTheLinesReachesTheOpenTable() throws {
        let database = try DemoDatabase(sql: FullScreenChildRowsTests.schema)
        let pane = try TerminalPane(database, ["edit", "invoice", "1", "--children"])
        try pane.screen(showing: "+ add a row")
        _ = try sqlite3(database.path, [], input: ".timeout 10000\nBEGIN; UPDATE invoice_line SET amount = 4 WHERE id = 11;\n"
                        + "INSERT INTO invoice_line VALUES (12, 1, 'Jam', 1.5); COMMIT;\n")
        let screen = try pane.screen(showing: "Changed by someone else: invoice_line row 2 changed (amount), row 3 added.")
        #expect(screen.contains("Jam"), "\(screen)")
        #expect(!screen.contains("3.5"), "Cake's old amount is gone: \(screen)")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }
}
