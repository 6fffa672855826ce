import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStoreCLI

/// `formstore edit` on a real terminal (tmux): the full-screen form, driven
/// by keys, read from the screen, compared with golden screens.
@Suite(.serialized) struct FullScreenEditTests {
    /// What changes from run to run on a screen: the time a draft was saved.
    static let draftTime = (#"\d{4}-\d\d-\d\d \d\d:\d\d"#, "YYYY-MM-DD hh:mm")

    @Test func fixAnInvalidValueAndSaveWithCtrlS() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try GoldenScreen.check(try pane.screen(showing: "Sign Up — signup 1"), "signup-opened")
        try pane.press("Tab", "Tab", "Tab", "Tab", "C-u")
        try pane.type("200")
        try pane.press("C-s")
        try GoldenScreen.check(try pane.screen(showing: "Not saved"), "signup-invalid-age")
        #expect(try stored(database, "SELECT age FROM signups WHERE id = 1") == "34\n")
        try pane.press("C-u")
        try pane.type("41")
        try pane.press("C-s")
        try GoldenScreen.check(try pane.screen(showing: "Saved: Age."), "signup-saved")
        #expect(try stored(database, "SELECT age FROM signups WHERE id = 1") == "41\n")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try pane.screen(showing: "Saved: Age.").hasPrefix("Saved: Age."))
        let settings = try pane.terminalSettings()
        #expect(settings.before == settings.after)
    }

    /// Where nowhere can keep a draft (no writable state folder for the
    /// sidecar), the status line says so as soon as the autosave finds it,
    /// with no key pressed after: a killed form would lose what was typed,
    /// and it said nothing until the edit ended. Ctrl-C then prints what was
    /// typed, the reason worded as the system says it.
    @Test func nowhereToKeepADraftIsSaidWhileTyping() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, note TEXT);
            INSERT INTO book VALUES (1, 'Dune', NULL);
            """)
        let pane = try TerminalPane(database, ["edit", "book", "1"], width: 120, environment: ["XDG_STATE_HOME": "/proc/nowhere"])
        try pane.screen(showing: "title")
        try pane.press("Tab")
        try pane.type("X")
        let warned = try pane.screen(showing: "NO DRAFT KEPT")
        #expect(warned.contains("NO DRAFT KEPT: ^S saves") && !warned.contains("keep draft"), "\(warned)")
        try pane.press("C-c")
        #expect(try pane.exitCode() == 1)
        let said = try pane.screen()
        #expect(said.contains("no draft could be kept (/proc/nowhere: No such file or directory)"), "\(said)")
        #expect(said.contains("  title: DuneX"), "\(said)")
    }

    /// A save the schema refuses (a CHECK) keeps the form open with what was
    /// typed and says why; fixed, it saves. Before, the form ended and said nothing.
    @Test func aSaveTheSchemaRefusesKeepsTheFormOpen() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE events (id INTEGER PRIMARY KEY, title TEXT NOT NULL, qty INTEGER CHECK (qty >= 0));
            INSERT INTO events VALUES (1, 'First', 3);
            """)
        let pane = try TerminalPane(database, ["edit", "events", "1"])
        try pane.screen(showing: "qty")
        try pane.press("Tab", "Tab", "C-u")
        try pane.type("-1")
        try pane.press("C-s")
        #expect(try pane.screen(showing: "Not saved").contains("Not saved: CHECK constraint failed: qty >= 0"))
        #expect(try stored(database, "SELECT qty FROM events WHERE id = 1") == "3\n")
        try pane.press("C-u")
        try pane.type("4")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: qty.")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try stored(database, "SELECT qty FROM events WHERE id = 1") == "4\n")
    }

    /// A save the database is locked for (past the busy timeout) keeps the
    /// form open with what was typed, a password too, and says so; Ctrl-S
    /// again saves once the lock is gone. The form ended (exit 75), and the
    /// password typed was lost.
    @Test func aSaveALockRefusesKeepsTheFormOpen() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT, password TEXT);
            INSERT INTO account VALUES (1, 'Ann', 's3cret');
            """)
        let pane = try TerminalPane(database, ["edit", "account", "1"], environment: ["FORMSTORE_BUSY_TIMEOUT_MS": "200"])
        try pane.screen(showing: "password")
        try pane.press("Tab")
        try pane.type("X")
        try pane.press("Tab")
        try pane.type("n3w-Secret")
        let holder = try LockHolder(database.path)
        try pane.press("C-s")
        #expect(try pane.screen(showing: "Not saved").contains("Not saved: another writer holds the database (it is locked); Ctrl-S tries again."))
        try holder.release()
        try pane.press("C-s")
        try pane.screen(showing: "Saved: ")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try stored(database, "SELECT name, password FROM account") == "AnnX|n3w-Secret\n")
    }

    /// A bool holding no value (NULL) shows `[-]`, not `[ ]` as no does, and
    /// Space goes yes, no, then back to no value, which is no change: a
    /// toggle there and back wrote 0. Del clears a bool or a choice to NULL,
    /// which the form could not do at all.
    @Test func aNullBoolIsShownApartAndABoolOrAChoiceClearsToNull() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, flag BOOLEAN, status TEXT CHECK (status IN ('open', 'hold')),
                            nn BOOLEAN NOT NULL DEFAULT 0);
            INSERT INTO t VALUES (1, NULL, 'hold', 1);
            """)
        let pane = try TerminalPane(database, ["edit", "t", "1"])
        try pane.screen(showing: "status")
        try pane.press("Tab")
        #expect(try pane.screen(showing: "Del clears").contains("› flag    [-]"))
        try pane.press("Space")
        try pane.screen(showing: "[x]")
        try pane.press("Space")
        try pane.screen(showing: "[ ]")
        try pane.press("Space")
        #expect(try pane.screen(showing: "[-]").contains("no changes"))
        // A NOT NULL bool (with a default) takes no NULL: refused at the key, not at the save.
        try pane.press("Tab", "Tab", "Delete")
        #expect(try pane.screen(showing: "cannot be empty").contains("nn cannot be empty: its column is NOT NULL"))
        try pane.press("BTab", "Delete", "C-s")
        try pane.screen(showing: "Saved: status.")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try stored(database, "SELECT quote(flag), quote(status), nn FROM t") == "NULL|NULL|1\n")
    }

    /// A date the column cannot hold as typed (a bare time in a date and time
    /// column, seven digits of a second) is refused beside the field while
    /// the typing goes on; before, the form ended at the first key with exit 65.
    @Test func aDateTheColumnCannotHoldIsRefusedBesideTheField() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE e (id INTEGER PRIMARY KEY, at DATETIME);
            INSERT INTO e VALUES (1, '2024-01-02 10:00:00');
            """)
        let pane = try TerminalPane(database, ["edit", "e", "1"])
        try pane.screen(showing: "2024-01-02 10:00:00")
        try pane.press("Tab", "C-u")
        try pane.type("11:00")
        #expect(try pane.screen(showing: "has no day").contains(#"! at holds a date and time: "11:00" has no day"#))
        try pane.press("C-u")
        try pane.type("2024-01-02 11:00:00.1234567")
        try pane.screen(showing: "at most 6 digits after the seconds")
        try pane.press("BSpace")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: at.")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try stored(database, "SELECT at FROM e") == "2024-01-02 11:00:00.123456\n")
    }

    /// Empty text is shown as `""` and NULL as nothing, as `show` shows
    /// them; typed over and rubbed out, empty text stays as it was.
    @Test func nullAndEmptyTextAreShownApart() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE c (id INTEGER PRIMARY KEY, a TEXT, b TEXT);
            INSERT INTO c VALUES (1, NULL, '');
            """)
        let pane = try TerminalPane(database, ["edit", "c", "1"])
        let screen = try pane.screen(showing: "c — c 1")
        #expect(screen.contains("\n  a\n  b   \"\"\n"), "\(screen)")
        try pane.press("Tab", "Tab")
        try pane.type("x")
        try pane.press("C-u", "Tab")
        #expect(try pane.screen(showing: "no changes").contains("  b   \"\"\n"))
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try stored(database, "SELECT quote(a), quote(b) FROM c") == "NULL|''\n")
    }

    /// A line break, a tab and a carriage return are drawn as their signs
    /// (⏎ ⇥ ␍) in a field not typed in too: escaped as `\n`, they looked like
    /// text holding a backslash and an n.
    @Test func controlCharactersAreSignsNotBackslashes() throws {
        let database = try DemoDatabase(sql: #"""
            CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT, note TEXT);
            INSERT INTO p VALUES (1, 'back\slash\n', 'a' || char(13) || 'b' || char(10) || 'c' || char(9) || 'd');
            """#)
        let pane = try TerminalPane(database, ["edit", "p", "1"])
        let screen = try pane.screen(showing: "p — p 1")
        #expect(screen.contains(#"  name  back\slash\n"#) && screen.contains("  note  a␍b⏎c⇥d"), "\(screen)")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    /// Enter on a foreign key opens the rows it may refer to, found by what
    /// is typed (not all of them: there may be thousands); Enter picks one.
    @Test func enterOnAForeignKeyPicksARow() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            WITH RECURSIVE n(i) AS (SELECT 3 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO artist SELECT i, 'Band ' || i FROM n;
            INSERT INTO artist VALUES (1, 'AC/DC'), (2, 'Accept');
            CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist_id INTEGER REFERENCES artist(id));
            INSERT INTO album VALUES (1, 'Powerage', 1);
            """)
        let pane = try TerminalPane(database, ["edit", "album", "1"])
        try pane.screen(showing: "artist_id  1 (AC/DC)")
        try pane.press("Tab", "Tab")
        try pane.screen(showing: "Enter picks a row")
        try pane.press("Enter")
        // The picker reads 50 rows: at their end it says typing finds the rest (it stopped there without a word).
        for _ in 0..<55 { try pane.press("Down") }
        #expect(try pane.screen(showing: "type for more").contains("└─ type for more"))
        try pane.type("Acc")
        #expect(try pane.screen(showing: "Filter: Acc").contains("│ Accept"))
        try pane.press("Enter")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: artist_id.")
        #expect(try stored(database, "SELECT artist_id FROM album") == "2\n")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    /// At the prompts a foreign key takes the label of the one row it names
    /// (`accept` for 2), as the full-screen picker does; a key is still a
    /// key. It said "artist_id is not a number".
    @Test func aPromptTakesAReferencedRowsLabel() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            INSERT INTO artist VALUES (1, 'AC/DC'), (2, 'Accept');
            CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist_id INTEGER REFERENCES artist(id));
            INSERT INTO album VALUES (1, 'Powerage', 1), (2, 'Balls', 1);
            """)
        let run = try database.run(["edit", "album", "1", "--plain"], stdin: "\naccept\ny\n")
        #expect(run.code == 0 && run.errors.contains("artist_id: 1 → 2"), "\(run)")
        let key = try database.run(["edit", "album", "2", "--plain"], stdin: "\n2\ny\n")
        #expect(key.code == 0, "\(key)")
        #expect(try stored(database, "SELECT artist_id FROM album ORDER BY id") == "2\n2\n")
    }

    /// A foreign key shows the row it refers to, as `show` names it, and a
    /// key typed in is named again when the focus leaves it: a key of no row
    /// says so before the save would be refused.
    @Test func aForeignKeyShowsItsRowsLabel() throws {
        let database = try DemoDatabase(sql: """
            CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO artist VALUES (1, 'AC/DC'), (2, 'Accept');
            CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist_id INTEGER REFERENCES artist(id));
            INSERT INTO album VALUES (1, 'Powerage', 1);
            """)
        let pane = try TerminalPane(database, ["edit", "album", "1"])
        #expect(try pane.screen(showing: "artist_id").contains("artist_id  1 (AC/DC)"))
        try pane.press("Tab", "Tab", "C-u")
        try pane.type("2")
        try pane.press("BTab")
        try pane.screen(showing: "2 (Accept)")
        try pane.press("Tab", "C-u")
        try pane.type("9")
        try pane.press("BTab")
        try pane.screen(showing: "9 (no such artist row)")
        try pane.press("C-c")
        #expect(try pane.exitCode() == 1)
    }

    @Test func escapeWithUnsavedChangesAsksFirst() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "Sign Up")
        try pane.press("Tab")
        try pane.type("x")
        try pane.press("Escape")
        try GoldenScreen.check(try pane.screen(showing: "Discard your unsaved changes"), "signup-discard-question")
        try pane.press("n")
        try pane.screen(showing: "1 unsaved")
        try pane.press("Escape")
        try pane.screen(showing: "Discard your unsaved changes")
        try pane.press("y")
        #expect(try pane.exitCode() == 0)
        #expect(try pane.screen(showing: "Changes discarded.").contains("Changes discarded."))
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Lee\n")
    }

    @Test func ctrlCKeepsADraftRestoresTheTerminalAndTheDraftIsOffered() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "Sign Up")
        try pane.press("Tab", "End")
        try pane.type("son")
        try pane.screen(showing: "Leeson")
        try pane.press("C-c")
        #expect(try pane.exitCode() == 1)
        #expect(try pane.screen(showing: "Interrupted").contains("Interrupted: your changes are kept as a draft."))
        let settings = try pane.terminalSettings()
        #expect(settings.before == settings.after)
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Lee\n")

        let again = try TerminalPane(database, ["edit", "signup", "1"])
        try GoldenScreen.check(try again.screen(showing: "An unsaved draft"), "signup-draft-offered",
                               normalising: [Self.draftTime])
        try again.press("r")
        try again.screen(showing: "Restored: Last Name.")
        try again.press("C-s")
        try again.screen(showing: "Saved: Last Name.")
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Leeson\n")
    }

    @Test func aConflictingSaveOpensTheConflictScreen() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "Sign Up")
        try pane.press("Tab", "End")
        try pane.type("-Smith")
        try pane.screen(showing: "Lee-Smith")
        _ = try stored(database, "UPDATE signups SET lastName = 'Li' WHERE id = 1")
        try pane.press("C-s")
        try GoldenScreen.check(try pane.screen(showing: "someone else changed"), "signup-conflict")
        try pane.press("Right", "Enter")
        try pane.screen(showing: "Conflicts resolved.")
        #expect(try pane.screen().contains("Last Name   Li\n"))
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Li\n")
    }

    @Test func aResizeRedrawsTheForm() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "Sign Up")
        try pane.resize(width: 60, height: 8)
        try GoldenScreen.check(try pane.screen(showing: "↓"), "signup-resized-60x8")
        try pane.press("BTab")  // to the last field: the form scrolls
        try GoldenScreen.check(try pane.screen(showing: "↑"), "signup-resized-scrolled")
    }

    @Test func wideCharactersLineUp() throws {
        let database = try DemoDatabase()
        try database.query("UPDATE signups SET firstName = '李小龍', lastName = 'Lee 東京' WHERE id = 1")
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "李小龍")
        try pane.press("Tab", "Tab", "C-u")
        try pane.type("東京@")
        try pane.press("C-s")
        let screen = try pane.screen(showing: "Not saved")
        try GoldenScreen.check(screen, "signup-wide-characters")
        // The error stands in the same column whatever the width of the value before it.
        let line = try #require(screen.split(separator: "\n").first { $0.contains("東京@") })
        let prefix = String(line[..<line.firstIndex(of: "!")!])
        #expect(DisplayWidth.of(prefix) == 56)
    }

    @Test func transformersFormatAFieldOnLeavingIt() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "register", "1"])
        try pane.screen(showing: "Phone")
        for _ in 0..<3 { try pane.press("Tab") }
        try pane.press("C-u")
        try pane.type("5558675309")
        try pane.screen(showing: "5558675309")
        try pane.press("Tab")
        let screen = try pane.screen(showing: "(555) 867-5309")
        try GoldenScreen.check(screen, "register-phone-formatted")
    }

    @Test func editModeShowsTheRecordUntilCtrlE() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "profile", "1"])
        try GoldenScreen.check(try pane.screen(showing: "EDIT: viewing"), "profile-viewing")
        try pane.type("x")
        try pane.screen(showing: "First Name cannot be changed yet: press Ctrl-E to edit")
        try pane.press("C-e")
        try pane.screen(showing: "EDITING")
        try pane.press("End")
        try pane.type("a")
        try pane.screen(showing: "EDITING │ 1 unsaved")
        try pane.press("C-s")
        try GoldenScreen.check(try pane.screen(showing: "Saved: First Name."), "profile-saved")
        #expect(try stored(database, "SELECT firstName FROM profiles WHERE id = 1") == "Anna\n")
    }

    @Test func freeModeSavesEachFieldAsItIsLeft() throws {
        let database = try DemoDatabase()
        try modeForms(database, mode: "free")
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "FREE")
        try pane.press("Tab", "End")
        try pane.type("ward")
        try pane.screen(showing: "Leeward")
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Lee\n")
        try pane.press("Tab")
        try GoldenScreen.check(try pane.screen(showing: "Saved Last Name."), "signup-free-saved")
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Leeward\n")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    /// Free mode's field half typed when a signal ends the edit (the
    /// terminal closed, SIGTERM) is kept in the draft: it was lost, and the
    /// edit said "no changes made" though it had saved a field.
    @Test func freeModeKeepsTheFieldHalfTypedWhenASignalEndsTheEdit() throws {
        let database = try DemoDatabase()
        try modeForms(database, mode: "free")
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "FREE")
        try pane.press("End")
        try pane.type("ie")
        try pane.press("Tab")
        try pane.screen(showing: "Saved First Name.")
        try pane.press("End")
        try pane.type("ward")
        try pane.screen(showing: "Leeward")
        try pane.signal(SIGTERM)
        #expect(try pane.exitCode() == 1)
        #expect(try pane.screen(showing: "Interrupted").contains("Interrupted: your changes are kept as a draft."))
        #expect(try stored(database, "SELECT firstName, lastName FROM signups WHERE id = 1") == "Annie|Lee\n")
        let drafts = try database.run(["draft", "show", "signup", "1"])
        #expect(drafts.output.contains("Leeward"), "\(drafts)")
    }

    @Test func frozenFormsChangeOnlyFieldsEnabledWhenNotEditing() throws {
        let database = try DemoDatabase()
        try modeForms(database, mode: "frozen")
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try GoldenScreen.check(try pane.screen(showing: "FROZEN"), "signup-frozen")
        try pane.type("x")
        try pane.screen(showing: "First Name cannot be changed: the form is frozen")
        for _ in 0..<4 { try pane.press("Tab") }
        try pane.press("C-u")
        try pane.type("35")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: Age.")
        #expect(try stored(database, "SELECT age, firstName FROM signups WHERE id = 1") == "35|Ann\n")
    }

    @Test func theTerminalComesBackAfterSuspendSignalsAndACrash() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"], jobControl: true)
        try pane.screen(showing: "Sign Up")
        let before = try pane.settingsBefore()
        #expect(try pane.currentSettings() != before)  // raw while the form runs
        try pane.press("C-z")
        // Stopped: the terminal is as it was, and the form is off the screen.
        #expect(try pane.stoppedSettings() == before)
        #expect(!(try pane.screen()).contains("Sign Up"))
        try pane.resume()
        try pane.screen(showing: "Sign Up — signup 1")
        #expect(try pane.currentSettings() != before)
        try pane.press("Tab", "End")
        try pane.type("x")
        try pane.screen(showing: "Leex")
        try pane.signal(SIGSEGV)
        #expect(try pane.exitCode() == 128 + SIGSEGV)
        let settings = try pane.terminalSettings()
        #expect(settings.before == settings.after)

        let terminated = try TerminalPane(database, ["edit", "signup", "1"])
        try terminated.screen(showing: "Sign Up")
        try terminated.signal(SIGTERM)
        #expect(try terminated.exitCode() == 1)
        #expect(try terminated.screen(showing: "Interrupted").contains("Interrupted: no unsaved changes."))
        let after = try terminated.terminalSettings()
        #expect(after.before == after.after)
    }

    @Test func promptsStayForPlainAndDumbTerminals() throws {
        let database = try DemoDatabase()
        let plain = try TerminalPane(database, ["edit", "signup", "1", "--plain"])
        #expect(try plain.screen(showing: "First Name [Ann]:").contains("First Name [Ann]:"))
        let dumb = try TerminalPane(database, ["edit", "signup", "1"], environment: ["TERM": "dumb"])
        #expect(try dumb.screen(showing: "First Name [Ann]:").contains("First Name [Ann]:"))
    }

    /// Ctrl-C at a prompt keeps the answer half typed in the draft, as the
    /// field's input: the terminal threw the line away with the signal, and
    /// the draft had nothing of it ("Interrupted: no changes made.").
    @Test func ctrlCAtAPromptKeepsTheHalfTypedAnswer() throws {
        let database = try DemoDatabase()
        // In a job of its own, as a shell runs it: Ctrl-C goes to the command alone.
        let plain = try TerminalPane(database, ["edit", "signup", "1", "--plain"], jobControl: true)
        try plain.screen(showing: "First Name [Ann]:")
        try plain.type("Half 漢字")
        try plain.screen(showing: "Half 漢字")
        try plain.press("C-c")
        #expect(try plain.exitCode() == 1)
        #expect(try plain.screen(showing: "Interrupted").contains("your changes are kept as a draft"))
        let draft = try database.run(["draft", "show", "signup", "1"])
        #expect(draft.output.contains("Half 漢字"), "\(draft)")
    }

    /// A query of the database while the form may be writing to it: waiting
    /// for its lock, as another application would (the helper does not wait).
    private func stored(_ database: DemoDatabase, _ sql: String) throws -> String {
        try sqlite3(database.path, [], input: ".timeout 10000\n\(sql);\n")
    }

    /// A copy of the seed specs with signup in `mode`, its Age editable when frozen.
    private func modeForms(_ database: DemoDatabase, mode: String) throws {
        let folder = database.scratch.path + "/forms-" + mode
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var spec = try String(contentsOfFile: DemoDatabase.fixtureForms + "/signup.json", encoding: .utf8)
        spec = spec.replacingOccurrences(of: #""table": "signups","#, with: #""table": "signups", "mode": "\#(mode)","#)
        spec = spec.replacingOccurrences(of: #""max": 119,"#, with: #""max": 119, "enabledWhenNotEditing": true,"#)
        try spec.write(toFile: folder + "/signup.json", atomically: true, encoding: .utf8)
        database.formsDirectory = folder
    }
}
