import FormStoreTestSupport
import Foundation
import Testing

/// `formstore serve` in a real browser: Debian's chromium, headless, driven
/// through chromium-driver's WebDriver. What a person does, and what they see.
@Suite(.serialized) struct BrowserTests {
    static func phoneError(_ browser: WebDriver) throws -> String {
        try browser.run("return document.getElementById('f-phone-error').hidden ? '' : document.getElementById('f-phone-error').textContent;") as? String ?? ""
    }

    @Test func anInvalidPhoneIsShownWhenLeftThenFixedSavedAndReloaded() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = try WebDriver()
        let url = "http://127.0.0.1:\(server.port)/forms/register/1"
        try browser.open(url)
        try browser.clear("#f-phone")
        try browser.type("#f-phone", "555-12")
        try browser.click("#f-email")  // leaving the field asks the server
        #expect(try browser.wait { try !Self.phoneError(browser).isEmpty }, "no error shown beside the phone")
        #expect(try Self.phoneError(browser).contains("Phone"))
        #expect(try browser.attribute("#f-phone", "aria-invalid") == "true")
        #expect(try browser.attribute("#f-phone", "aria-describedby")?.contains("f-phone-error") == true)
        try browser.clear("#f-phone")
        try browser.type("#f-phone", "555 222 3333")
        try browser.click("#f-email")
        #expect(try browser.wait { try Self.phoneError(browser).isEmpty }, "the error stayed after the fix")
        try browser.click("button[type=submit]")
        #expect(try browser.wait { try browser.exists(".notice.saved") })
        #expect(try browser.text(".notice.saved") == "Saved: Phone.")
        try browser.open(url)
        #expect(try browser.value("#f-phone") == "(555) 222-3333")
        #expect(try db.query("SELECT phone FROM registers WHERE id = 1") == "5552223333\n")
    }

    /// Records open in many tabs leave the browser its connections: a tab in
    /// the background closes its record's event stream (a browser opens six
    /// to a server, and each stream held one, so a seventh page never came),
    /// and shown again it hears of a save made meanwhile. Headless Chromium
    /// keeps every tab visible: a tab is put in the background as a browser
    /// with windows does it, by its visibility and the event that says so.
    @Test func manyOpenRecordsLeaveTheBrowserItsConnections() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = try WebDriver()
        let base = "http://127.0.0.1:\(server.port)"
        func setHidden(_ hidden: Bool) throws {
            try browser.run("Object.defineProperty(document, 'hidden', {value: \(hidden), configurable: true});"
                            + "document.dispatchEvent(new Event('visibilitychange'));")
        }
        try browser.open(base + "/forms/register/1")
        let first = try #require(try browser.windows.first)
        for _ in 0..<8 {
            try setHidden(true)
            try browser.newTab()
            try browser.open(base + "/forms/register/2")
            #expect(try browser.wait(10) { try browser.exists("form.record") }, "a page did not come")
        }
        _ = try sqlite3(db.path, input: "UPDATE registers SET phone = '5550001111' WHERE id = 1;")
        try browser.command("POST", "/window", ["handle": first])
        try setHidden(false)
        #expect(try browser.wait { try browser.exists("#saved-elsewhere") }, "no notice of the save made while hidden")
    }

    @Test func whatWasTypedBeforeTheTabClosedIsOfferedAndRestored() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = try WebDriver()
        let url = "http://127.0.0.1:\(server.port)/forms/register/2"
        try browser.newTab()
        try browser.open(url)
        try browser.clear("#f-email")
        try browser.type("#f-email", "bo@draft.example")
        try browser.closeTab()
        try browser.newTab()
        try browser.open(url)
        // The draft reaches the server as the tab closes (or from the autosave before): reload until offered.
        let offered = try browser.wait {
            if try browser.exists("#draft-offer") { return true }
            try browser.open(url)
            return false
        }
        #expect(offered, "no draft offered")
        #expect(try browser.value("#f-email") == "bo@example.com")
        try browser.click("#draft-offer form[action$='/draft/restore'] button")
        #expect(try browser.wait { try browser.value("#f-email") == "bo@draft.example" })
        try browser.click("form.record button[type=submit]")
        #expect(try browser.wait { try browser.exists(".notice.saved") })
        #expect(try db.query("SELECT email FROM registers WHERE id = 2") == "bo@draft.example\n")
    }

    @Test func twoBrowsersEditTheSameFieldAndTheSecondResolves() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let first = try WebDriver(), second = try WebDriver()
        let url = "http://127.0.0.1:\(server.port)/forms/register/1"
        try first.open(url)
        try second.open(url)
        try first.clear("#f-email")
        try first.type("#f-email", "first@example.com")
        try first.click("button[type=submit]")
        #expect(try first.wait { try first.exists(".notice.saved") })
        // The second browser hears of the save while its page is open.
        #expect(try second.wait { try second.exists("#saved-elsewhere") }, "no notice of the other save")
        try second.clear("#f-email")
        try second.type("#f-email", "second@example.com")
        try second.click("button[type=submit]")
        #expect(try second.wait { try second.exists("fieldset.conflict") })
        #expect(try second.text("fieldset.conflict").contains("first@example.com"))
        #expect(try second.text("fieldset.conflict").contains("second@example.com"))
        try second.click("#f-email-theirs")
        try second.click("form.conflicts button[type=submit]")
        #expect(try second.wait { try second.exists(".notice") })
        #expect(try db.query("SELECT email FROM registers WHERE id = 1") == "first@example.com\n")
        // Choosing their own value instead saves it.
        try second.clear("#f-email")
        try second.type("#f-email", "second@example.com")
        try first.open(url)
        try first.clear("#f-email")
        try first.type("#f-email", "again@example.com")
        try first.click("button[type=submit]")
        #expect(try first.wait { try first.exists(".notice.saved") })
        try second.click("form.record button[type=submit]")
        #expect(try second.wait { try second.exists("fieldset.conflict") })
        try second.click("#f-email-mine")
        try second.click("form.conflicts button[type=submit]")
        #expect(try second.wait { try second.exists(".notice.saved") })
        #expect(try db.query("SELECT email FROM registers WHERE id = 1") == "second@example.com\n")
    }

    /// What a browser always does to the text it is given — drops the
    /// newline after a textarea's tag, sends line breaks as CRLF, draws and
    /// sends a NUL as U+FFFD — changes nothing: a save of another field
    /// leaves every other byte as it was.
    @Test func aSaveOfOneFieldLeavesTheOtherFieldsBytes() throws {
        let db = try DemoDatabase(sql: """
        CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT, body TEXT, tag TEXT);
        INSERT INTO notes VALUES (1, 'x' || char(0) || 'y', char(10) || 'first' || char(13, 10) || 'second', 'old');
        """)
        let before = try db.query("SELECT hex(title), hex(body) FROM notes")
        let server = try ServeRun(db)
        let browser = try WebDriver()
        try browser.open("http://127.0.0.1:\(server.port)/forms/notes/1")
        #expect(try browser.value("#f-body") == "\nfirst\nsecond")
        try browser.replace("#f-tag", "new")
        try browser.click("button[type=submit]")
        #expect(try browser.wait { try browser.exists(".notice.saved") })
        #expect(try browser.text(".notice.saved") == "Saved: tag.")
        #expect(try db.query("SELECT hex(title), hex(body), tag FROM notes") == before.dropLast() + "|new\n")
    }

    @Test func withScriptOffEditingAndSavingStillWork() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = try WebDriver(javaScript: false)
        let url = "http://127.0.0.1:\(server.port)/forms/register/2"
        try browser.open(url)
        try browser.clear("#f-phone")
        try browser.type("#f-phone", "12")
        try browser.click("button[type=submit]")
        #expect(try browser.wait { try browser.exists(".error-summary") })
        #expect(try browser.text("#f-phone-error").contains("Phone"))
        try browser.clear("#f-phone")
        try browser.type("#f-phone", "(555) 444-5555")
        try browser.click("button[type=submit]")
        #expect(try browser.wait { try browser.exists(".notice.saved") })
        try browser.open(url)
        #expect(try browser.value("#f-phone") == "(555) 444-5555")
        #expect(try db.query("SELECT phone FROM registers WHERE id = 2") == "5554445555\n")
    }
}

/// A form in free mode: each change saved as it is made, in a real browser.
@Suite(.serialized) struct FreeModeBrowserTests {
    @Test func eachChangeIsSavedAsItIsMade() throws {
        let forms = try TemporaryDirectory()
        try #"""
        {"formstore": 1, "name": "logins", "title": "Logins", "mode": "free", "primaryKey": ["id"],
         "sections": [{"fields": [{"key": "email", "label": "E-mail", "kind": "email", "email": true}]}]}
        """#.write(toFile: forms.path + "/logins.json", atomically: true, encoding: .utf8)
        let db = try DemoDatabase(formsDirectory: forms.path)
        let server = try ServeRun(db)
        let browser = try WebDriver()
        try browser.open("http://127.0.0.1:\(server.port)/forms/logins/1")
        for email in ["first@example.com", "second@example.com"] {
            try browser.replace("#f-email", email)
            try browser.run("document.getElementById('f-email').blur();")
            #expect(try browser.wait { (try? db.query("SELECT email FROM logins WHERE id = 1")) == email + "\n" }, "\(email) not saved")
            #expect(try browser.wait { try browser.exists("#free-status.saved") })
        }
        try browser.replace("#f-email", "not an address")
        try browser.run("document.getElementById('f-email').blur();")
        #expect(try browser.wait { try browser.attribute("#f-email", "aria-invalid") == "true" })
        #expect(try browser.wait { try browser.text("#free-status").contains("Not saved:") })
        #expect(try db.query("SELECT email FROM logins WHERE id = 1") == "second@example.com\n")
        // A refusal no field holds (a UNIQUE index) is said in the status, not only "see below".
        try db.query("INSERT INTO logins (id, email, password) VALUES (99, 'taken@example.com', 'x'); "
                     + "CREATE UNIQUE INDEX logins_email ON logins(email)")
        try browser.replace("#f-email", "taken@example.com")
        try browser.run("document.getElementById('f-email').blur();")
        #expect(try browser.wait { try browser.text("#free-status").lowercased().contains("email") }, "no word of the UNIQUE refusal")
        #expect(try db.query("SELECT email FROM logins WHERE id = 1") == "second@example.com\n")
        // The page's own saves are no one else's: no notice, until another writer saves.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try !browser.exists("#saved-elsewhere"), "its own save was taken for someone else's")
        try db.query("UPDATE logins SET email = 'third@example.com' WHERE id = 1")
        #expect(try browser.wait { try browser.exists("#saved-elsewhere") }, "no notice of the other save")
    }

    /// Another writer's change to a field this page left alone is taken by the
    /// page when its save merges it (it kept showing the old value, and the
    /// next change posted that back over theirs); a field both changed opens
    /// the choice between the two values (the status said "choose below" with
    /// nothing below, and a later Save wrote this page's value over theirs).
    @Test func anotherWritersChangeIsNeverWrittenOver() throws {
        let forms = try TemporaryDirectory()
        try #"""
        {"formstore": 1, "name": "notes", "title": "Notes", "mode": "free", "table": "notes", "primaryKey": ["id"],
         "sections": [{"fields": [{"key": "memo", "label": "Memo"}, {"key": "total", "label": "Total", "kind": "decimal"}]}]}
        """#.write(toFile: forms.path + "/notes.json", atomically: true, encoding: .utf8)
        let db = try DemoDatabase(sql: """
            CREATE TABLE notes (id INTEGER PRIMARY KEY, memo TEXT, total REAL);
            INSERT INTO notes VALUES (1, 'm0', 1), (2, 'base', 1);
            """, formsDirectory: forms.path)
        let server = try ServeRun(db)
        let browser = try WebDriver()
        try browser.open("http://127.0.0.1:\(server.port)/forms/notes/1")
        try db.query("UPDATE notes SET total = 222 WHERE id = 1")
        try browser.replace("#f-memo", "m0a")
        try browser.run("document.getElementById('f-memo').blur();")
        #expect(try browser.wait { (try? db.query("SELECT memo, total FROM notes WHERE id = 1")) == "m0a|222.0\n" })
        #expect(try browser.wait { try browser.value("#f-total") == "222" }, "the page kept showing the old total")
        try browser.replace("#f-memo", "m0ab")
        try browser.run("document.getElementById('f-memo').blur();")
        #expect(try browser.wait { (try? db.query("SELECT memo FROM notes WHERE id = 1")) == "m0ab\n" })
        #expect(try db.query("SELECT total FROM notes WHERE id = 1") == "222.0\n")

        try browser.open("http://127.0.0.1:\(server.port)/forms/notes/2")
        try db.query("UPDATE notes SET memo = 'theirs' WHERE id = 2")
        try browser.replace("#f-memo", "base-mine")
        try browser.run("document.getElementById('f-memo').blur();")
        #expect(try browser.wait { try browser.exists("fieldset.conflict") }, "no choice between the two values")
        #expect(try db.query("SELECT memo FROM notes WHERE id = 2") == "theirs\n")
    }
}
