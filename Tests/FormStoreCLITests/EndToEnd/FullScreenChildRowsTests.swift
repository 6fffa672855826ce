import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStoreCLI

/// `formstore edit --children` on a real terminal (tmux): an invoice with its
/// lines as a table, rows added, fixed, deleted, and saved in one Ctrl-S.
@Suite(.serialized) struct FullScreenChildRowsTests {
    static let schema = """
        CREATE TABLE invoice (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total NUMERIC NOT NULL DEFAULT 0);
        CREATE TABLE invoice_line (
            id INTEGER PRIMARY KEY,
            invoice_id INTEGER NOT NULL REFERENCES invoice(id),
            item TEXT NOT NULL,
            amount NUMERIC NOT NULL
        );
        INSERT INTO invoice VALUES (1, 'Ann', 5.5);
        INSERT INTO invoice_line VALUES (10, 1, 'Tea', 2.5), (11, 1, 'Cake', 3.5);
        """

    /// A new row's part of a composite key is typed (a track's number on its
    /// album): the focus stops on it, where it skipped it and the row could never be saved.
    @Test func aNewRowTypesItsPartOfACompositeKey() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT);
            INSERT INTO album VALUES (1, 'Powerage');
            CREATE TABLE track (album_id INTEGER REFERENCES album(id), no INTEGER, name TEXT, PRIMARY KEY (album_id, no));
            INSERT INTO track VALUES (1, 1, 'Rock n Roll Damnation');
            """)
        let pane = try TerminalPane(database, ["edit", "album", "1", "--children"])
        try pane.screen(showing: "+ add a row")
        // id, title, the stored track's name, then the add line.
        try pane.press("Tab", "Tab", "Tab")
        try pane.screen(showing: "› + add a row")
        try pane.press("Enter")
        try pane.type("2")
        try pane.press("Tab")
        try pane.type("Down Payment Blues")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: track.")
        #expect(try stored(database, "SELECT album_id, no, name FROM track ORDER BY no")
                == "1|1|Rock n Roll Damnation\n1|2|Down Payment Blues\n")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    /// A row's foreign key shows the row it refers to, as `show --children`
    /// names it, and Enter on it opens those rows to pick from, as on a field:
    /// the cells showed bare ids, and Enter only moved on.
    @Test func aRowsForeignKeyShowsItsRowAndOpensAPicker() throws {
        let database = try DemoDatabase(sql: ChildRowsWriteCommandTests.playlists)
        let shown = try TerminalPane(database, ["edit", "playlist", "1", "--children"])
        try shown.screen(showing: "3 (Outro)")
        try shown.press("Escape")
        // An empty playlist: past id and name to the add line, a new row, whose track is picked.
        let pane = try TerminalPane(database, ["edit", "playlist", "2", "--children"])
        try pane.screen(showing: "+ add a row")
        try pane.press("Tab", "Tab")
        try pane.screen(showing: "› + add a row")
        try pane.press("Enter")
        try pane.screen(showing: "Row added to playlist_track.")
        try pane.press("Enter")
        // The rows by label: Intro, Outro, Song; the second is picked.
        try pane.screen(showing: "Song")
        try pane.press("Down")
        try pane.press("Enter")
        try pane.screen(showing: "references track.id")
        try pane.press("Tab")
        try pane.type("0")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: playlist_track.")
        try pane.screen(showing: "3 (Outro)")
        #expect(try stored(database, "SELECT track_id, position FROM playlist_track WHERE playlist_id = 2") == "3|0\n")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    @Test func addFixDeleteAndSaveTheLinesWithTheInvoice() throws {
        let database = try DemoDatabase(sql: Self.schema)
        let pane = try TerminalPane(database, ["edit", "invoice", "1", "--children"])
        try GoldenScreen.check(try pane.screen(showing: "+ add a row"), "invoice-lines-opened")
        // id, customer, total, then each line's item and amount, then the add line.
        try pane.press("Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Tab")
        try pane.screen(showing: "› + add a row")
        try pane.press("Enter")
        try pane.screen(showing: "Row added to invoice_line.")
        try pane.type("Jam")
        try pane.press("Tab")
        try pane.type("4x")
        try GoldenScreen.check(try pane.screen(showing: "! "), "invoice-lines-invalid-amount")
        try pane.press("BSpace")
        try pane.screen(showing: "1 unsaved")
        #expect(try !pane.screen().contains("! "))
        // Back to the first line (Tea), deleted after asking.
        try pane.press("BTab", "BTab", "BTab", "BTab", "C-x")
        try GoldenScreen.check(try pane.screen(showing: "Delete row 1 of invoice_line?"), "invoice-lines-delete-question")
        try pane.press("y")
        try pane.screen(showing: "Row 1 of invoice_line deleted (when saved).")
        #expect(try stored(database, "SELECT count(*) FROM invoice_line") == "2\n")
        try pane.press("C-s")
        try GoldenScreen.check(try pane.screen(showing: "Saved"), "invoice-lines-saved")
        #expect(try stored(database, "SELECT id, item, amount FROM invoice_line ORDER BY id")
                == "11|Cake|3.5\n12|Jam|4\n")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    /// Alt-Z takes back a row deleted, with the text typed in it that did
    /// not parse, then that text; Ctrl-Y does the deletion again.
    @Test func altZTakesBackARowEdit() throws {
        let database = try DemoDatabase(sql: Self.schema)
        let pane = try TerminalPane(database, ["edit", "invoice", "1", "--children"])
        try pane.screen(showing: "+ add a row")
        try pane.press("Tab", "Tab", "Tab", "Tab")
        try pane.type("x")
        try pane.screen(showing: "! amount is not a number")
        try pane.press("C-x")
        try pane.screen(showing: "Delete row 1 of invoice_line?")
        try pane.press("y")
        #expect(try !pane.screen(showing: "deleted (when saved)").contains("Tea"))
        try pane.press("M-z")
        let back = try pane.screen(showing: "Undone: invoice_line.")
        #expect(back.contains("Tea   2.5x    ! amount is not a number"), "\(back)")
        try pane.press("M-z")
        #expect(try pane.screen(showing: "no changes").contains("Tea   2.5\n"))
        try pane.press("C-y", "C-y")
        #expect(try !pane.screen(showing: "Redone: invoice_line.").contains("Tea"))
        try pane.press("C-c")
        #expect(try pane.exitCode() == 1)
        #expect(try stored(database, "SELECT count(*) FROM invoice_line") == "2\n")
    }

    @Test func withoutChildrenTheFormHasNoTable() throws {
        let database = try DemoDatabase(sql: Self.schema)
        let pane = try TerminalPane(database, ["edit", "invoice", "1"])
        let screen = try pane.screen(showing: "customer")
        #expect(!screen.contains("invoice_line"))
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    @Test func theRowsOfATableWithoutAnOrderColumnCannotBeMoved() throws {
        let database = try DemoDatabase(sql: Self.schema)
        let pane = try TerminalPane(database, ["edit", "invoice", "1", "--children"])
        try pane.screen(showing: "+ add a row")
        try pane.press("Tab", "Tab", "Tab", "M-Down")
        try pane.screen(showing: "cannot be moved")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    @Test func aLineChangedMeanwhileOpensTheConflictScreenPerRowAndField() throws {
        let database = try DemoDatabase(sql: Self.schema)
        let pane = try TerminalPane(database, ["edit", "invoice", "1", "--children"])
        try pane.screen(showing: "+ add a row")
        try pane.press("Tab", "Tab", "Tab", "Tab", "C-u")  // Tea's amount
        try pane.type("7")
        try pane.screen(showing: "1 unsaved")
        _ = try stored(database, "UPDATE invoice_line SET amount = 9 WHERE id = 10")
        try pane.press("C-s")
        try GoldenScreen.check(try pane.screen(showing: "someone else changed"), "invoice-lines-conflict")
        try pane.press("Enter")  // keep yours
        try pane.screen(showing: "Conflicts resolved")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: invoice_line.")
        #expect(try stored(database, "SELECT amount FROM invoice_line WHERE id = 10") == "7\n")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    /// A line changed here and deleted by someone else meanwhile: yours keeps
    /// it (as a new row with your values), theirs lets it go, and either way
    /// the next save goes through. The save met the same conflict for ever,
    /// and theirs failed with "form invoice has no field 'invoice_line[11]'".
    @Test(arguments: [true, false])
    func aLineChangedHereAndDeletedThereIsSettledEitherWay(_ keepMine: Bool) throws {
        let database = try DemoDatabase(sql: Self.schema)
        let pane = try TerminalPane(database, ["edit", "invoice", "1", "--children"])
        try pane.screen(showing: "+ add a row")
        try pane.press("Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "C-u")  // Cake's amount
        try pane.type("8")
        try pane.screen(showing: "1 unsaved")
        _ = try stored(database, "DELETE FROM invoice_line WHERE id = 11")
        try pane.press("C-s")
        try pane.screen(showing: "someone else changed")
        if !keepMine { try pane.press("Right") }
        try pane.press("Enter")
        try pane.screen(showing: "Conflicts resolved")
        try pane.press("C-s")
        // Saved; or, theirs taken, nothing left to save.
        try pane.screen(showing: keepMine ? "Saved" : "No changes to save")
        #expect(try stored(database, "SELECT item || '=' || amount FROM invoice_line ORDER BY id")
                == (keepMine ? "Tea=2.5\nCake=8\n" : "Tea=2.5\n"))
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    /// A line deleted here and there too is no conflict: the save goes through.
    @Test func aLineDeletedOnBothSidesIsNoConflict() throws {
        let database = try DemoDatabase(sql: Self.schema)
        let pane = try TerminalPane(database, ["edit", "invoice", "1", "--children"])
        try pane.screen(showing: "+ add a row")
        try pane.press("Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "C-x")
        try pane.screen(showing: "Delete row 2 of invoice_line?")
        try pane.press("y")
        _ = try stored(database, "DELETE FROM invoice_line WHERE id = 11")
        try pane.press("C-s")
        // Saved, or, where the form heard the other delete first, nothing left to save.
        _ = try pane.screen(showing: "ave")
        #expect(try stored(database, "SELECT count(*) FROM invoice_line") == "1\n")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    /// A query of the database while the form may be writing to it.
    private func stored(_ database: DemoDatabase, _ sql: String) throws -> String {
        try sqlite3(database.path, [], input: ".timeout 10000\n\(sql);\n")
    }
}
