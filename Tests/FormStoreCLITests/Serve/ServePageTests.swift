import Foundation
import FormStoreTestSupport
import Testing

/// `formstore serve`'s pages through a client without script: every page a
/// plain GET, every change a plain POST with the page's CSRF token.
@Suite(.serialized) struct ServePageTests {
    /// A database made by `sql`, served, and a browser without script visiting it.
    static func served(_ sql: String) throws -> (DemoDatabase, ServeRun, PageVisitor) {
        let db = try DemoDatabase(sql: sql)
        let server = try ServeRun(db)
        return (db, server, PageVisitor(port: server.port))
    }

    @Test func formsRecordsAndARecordArePages() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let home = try browser.get("/")
        #expect(home.status == 200, "\(home)")
        #expect(home.headers["content-type"] == "text/html; charset=utf-8")
        #expect(home.text.contains("<a href=\"/forms/signup\">Sign Up</a>"), "\(home)")
        #expect(home.text.contains("<a href=\"/forms/order%20items\">"))
        let cookie = try #require(home.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let csp = try #require(home.headers["content-security-policy"])
        #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))

        let list = try browser.get("/forms/signup")
        #expect(list.status == 200)
        #expect(list.text.contains("<a href=\"/forms/signup/1\">1</a>"))
        #expect(list.text.contains("<td>Ann</td>"))
        #expect(!list.text.contains("hunter22"), "a secure value in the list")

        let record = try browser.get("/forms/signup/1")
        #expect(record.status == 200)
        #expect(record.text.contains("<label for=\"f-firstName\">"))
        #expect(record.text.contains("value=\"Ann\""))
        #expect(!record.text.contains("hunter22"), "a secure value on the page")

        #expect(try browser.get("/forms/nope").status == 404)
        #expect(try browser.get("/forms/signup/99").status == 404)
        #expect(try browser.get("/no/such/page").status == 404)
        let css = try browser.get("/static/formstore.css")
        #expect(css.status == 200 && css.headers["content-type"] == "text/css; charset=utf-8")
        let js = try browser.get("/static/formstore.js")
        #expect(js.status == 200 && js.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(try HTTPClient.request("PUT", port: server.port, "/forms/signup/1").status == 405)
        // What only a post does is 405 to a GET, naming POST.
        for action in ["undo", "redo", "draft", "validate", "draft/restore", "draft/discard"] {
            let got = try browser.get("/forms/signup/1/" + action)
            #expect(got.status == 405 && got.headers["allow"] == "POST", "\(action): \(got)")
        }
    }

    @Test func pagingSortingFilteringAndSearching() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let first = try browser.get("/forms/signup?limit=1")
        #expect(first.text.contains("<td>Ann</td>") && !first.text.contains("<td>Bo</td>"))
        #expect(first.text.contains("rel=\"next\""))
        let second = try browser.get("/forms/signup?limit=1&offset=1")
        #expect(second.text.contains("<td>Bo</td>") && second.text.contains("rel=\"prev\""))
        let sorted = try browser.get("/forms/signup?sort=-firstName")
        let ann = try #require(sorted.text.range(of: "<td>Ann</td>")), bo = try #require(sorted.text.range(of: "<td>Bo</td>"))
        #expect(bo.lowerBound < ann.lowerBound)
        let filtered = try browser.get("/forms/signup?where=age%3E30")
        #expect(filtered.text.contains("<td>Ann</td>") && !filtered.text.contains("<td>Bo</td>"))
        let searched = try browser.get("/forms/signup?q=bo%40")
        #expect(searched.text.contains("<td>Bo</td>") && !searched.text.contains("<td>Ann</td>"))
    }

    @Test func aPostSavesWhatChangedAndTheReloadShowsIt() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/register/1")
        let saved = try browser.submit(page, ["phone": "555 222 3333"])
        #expect(saved.status == 303, "\(saved)")
        #expect(saved.headers["location"] == "/forms/register/1?saved=phone")
        let after = try browser.get(saved.headers["location"]!)
        #expect(after.text.contains("Saved: Phone."))
        #expect(after.text.contains("value=\"(555) 222-3333\""))
        #expect(try db.query("SELECT phone, password, birthdate FROM registers WHERE id = 1") == "5552223333|hunter22|1990-04-01\n")
    }

    /// A page saved as it was drawn changes nothing, where a browser's inputs
    /// would have changed what they hold: a value with line breaks (a
    /// textarea), a date the date input cannot hold (a text input), a NULL
    /// bool (a select of nothing, yes and no, not an unchecked box).
    @Test func aPageSavedAsDrawnChangesNothing() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, flag BOOLEAN, memo TEXT, d DATE, tm TIME);
            INSERT INTO t VALUES (1, NULL, 'line1' || char(10) || 'line2', '04/07/2016', '1:02 PM');

            """)
        let before = try db.dump()
        let page = try browser.get("/forms/t/1")
        #expect(page.text.contains("<textarea name=\"memo\""))
        // A DATE column of such dates is a text field (docs/fidelity.md), which says why.
        #expect(page.text.contains("<input type=\"text\" name=\"d\" id=\"f-d\" aria-describedby=\"f-d-hint\" value=\"04/07/2016\">"))
        #expect(page.text.contains("<select name=\"flag\" id=\"f-flag\"><option value=\"\" selected></option>"))
        let saved = try browser.submit(page, [:])
        #expect(saved.status == 303, "\(saved)")
        #expect(saved.headers["location"] == "/forms/t/1?saved=")
        #expect(try db.dump() == before)
        // Chosen, the bool is stored; the page then draws a checkbox.
        let chosen = try browser.submit(try browser.get("/forms/t/1"), ["flag": "off"])
        #expect(chosen.headers["location"] == "/forms/t/1?saved=flag", "\(chosen)")
        #expect(try db.query("SELECT quote(flag) FROM t") == "0\n")
        #expect(try browser.get("/forms/t/1").text.contains("<input type=\"checkbox\" name=\"flag\""))
    }

    /// A bool posted as words is read as the field reads them: `no` chosen
    /// on the conflict page (which draws yes/no) is stored as no. Anything
    /// but `off` was yes, so a choice of no was saved as yes.
    @Test func aBoolChosenAsNoOnTheConflictPageIsStoredAsNo() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE flags (id INTEGER PRIMARY KEY, name TEXT, active BOOLEAN NOT NULL DEFAULT 0);
            INSERT INTO flags VALUES (2, 'b', 1);
            """)
        let page = try browser.get("/forms/flags/2")
        _ = try db.query("UPDATE flags SET name = 'Theirs' WHERE id = 2")
        // The box unticked (not sent), the name typed over a name someone else changed.
        let conflict = try browser.post("/forms/flags/2", PageVisitor.formMembers(page.text)
            .filter { $0.0 != "active" }.map { $0.0 == "name" ? ("name", "Mine") : $0 })
        #expect(conflict.status == 409, "\(conflict)")
        #expect(conflict.text.contains("name=\"active\" value=\"no\""), "\(conflict)")
        let resolved = try browser.submit(conflict, [:])
        #expect(resolved.status == 303, "\(resolved)")
        #expect(try db.query("SELECT name, active FROM flags") == "Mine|0\n")
        // Words a script posts are read as typed; text that is no yes or no is refused, not taken as yes.
        #expect(try browser.submit(try browser.get("/forms/flags/2"), ["active": "yes"]).status == 303)
        #expect(try db.query("SELECT active FROM flags") == "1\n")
        #expect(try browser.submit(try browser.get("/forms/flags/2"), ["active": "false"]).status == 303)
        #expect(try db.query("SELECT active FROM flags") == "0\n")
        let refused = try browser.submit(try browser.get("/forms/flags/2"), ["active": "maybe"])
        #expect(refused.status == 422, "\(refused)")
        #expect(try db.query("SELECT active FROM flags") == "0\n")
    }

    /// A composed `é` typed over `e` + U+0301 is a change, stored as typed
    /// (docs/fidelity.md): Swift's `==` took them for the same text, so the
    /// page said nothing changed.
    @Test func canonicallyEquivalentTextIsAChangeOnThePage() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO people VALUES (3, 'e' || char(0x301));
            """)
        let saved = try browser.submit(try browser.get("/forms/people/3"), ["name": "\u{E9}"])
        #expect(saved.headers["location"] == "/forms/people/3?saved=name", "\(saved)")
        #expect(try db.query("SELECT hex(name) FROM people") == "C3A9\n")
    }

    /// A time's fraction of a second is drawn in its input (which shows
    /// milliseconds), so an edit of the hour keeps it: it was drawn without,
    /// and the save stored the time without its fraction.
    @Test func aTimesFractionIsDrawnAndKept() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, ms TIMESTAMP, frac DATETIME, fine DATETIME);
            INSERT INTO t VALUES (1, 1704189600123, '2024-01-02 10:00:00.25', '2024-01-02 10:00:00.123456');
            """)
        let before = try db.dump()
        let page = try browser.get("/forms/t/1")
        #expect(page.text.contains(#"<input type="datetime-local" name="ms" id="f-ms" value="2024-01-02T10:00:00.123" step="0.001">"#), "\(page.text)")
        #expect(page.text.contains(#"value="2024-01-02T10:00:00.250" step="0.001">"#))
        // Finer than a millisecond, which the input cannot hold: a text input, as typed.
        #expect(page.text.contains(#"<input type="text" name="fine" id="f-fine" value="2024-01-02T10:00:00.123456">"#))
        #expect(try browser.submit(page, [:]).headers["location"] == "/forms/t/1?saved=")
        #expect(try db.dump() == before)
        let saved = try browser.submit(try browser.get("/forms/t/1"), ["ms": "2024-01-02T11:00:00.123"])
        #expect(saved.headers["location"] == "/forms/t/1?saved=ms", "\(saved)")
        #expect(try db.query("SELECT ms FROM t") == "1704193200123\n")
    }

    /// A script's post that leaves out fields the page listed leaves them
    /// as they are (they were cleared, and the conflict page carried the
    /// clearing on); a `_fields` that is no list is refused, not read as none.
    @Test func fieldsLeftOutOfAPostAreNotGiven() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, age INTEGER, city TEXT);
            INSERT INTO people VALUES (2, 'Bo', 30, 'Oslo');
            """)
        let page = try browser.get("/forms/people/2")
        _ = try db.query("UPDATE people SET name = 'Theirs' WHERE id = 2")
        let some = PageVisitor.formMembers(page.text).filter { ["_csrf", "_base", "_fields"].contains($0.0) } + [("name", "Mine")]
        let conflict = try browser.post("/forms/people/2", some)
        #expect(conflict.status == 409, "\(conflict)")
        #expect(!conflict.text.contains("name=\"age\""), "\(conflict.text)")
        #expect(try browser.submit(conflict, [:]).status == 303)
        #expect(try db.query("SELECT name, age, city FROM people") == "Mine|30|Oslo\n")
        let unreadable = try browser.submit(try browser.get("/forms/people/2"), ["_fields": "notjson", "age": "4"])
        #expect(unreadable.status == 422, "\(unreadable)")
        #expect(unreadable.text.contains("_fields is not a JSON list of field names"), "\(unreadable.text)")
        #expect(try db.query("SELECT age FROM people") == "30\n")
    }

    /// Empty text is drawn apart from NULL, as `list` and `show` write them:
    /// `""` in the list, dim in an empty input; NULL as nothing. Both were blank.
    @Test func nullAndEmptyTextAreDrawnApart() throws {
        let (_, server, browser) = try Self.served("""
            CREATE TABLE u (id INTEGER PRIMARY KEY, a TEXT, b TEXT);
            INSERT INTO u VALUES (1, NULL, '');
            """)
        #expect(try browser.get("/forms/u").text.contains(#"<td></td><td class="empty-text">""</td>"#))
        let page = try browser.get("/forms/u/1").text
        #expect(page.contains(#"<input type="text" name="a" id="f-a" value="">"#), "\(page)")
        #expect(page.contains(#"<input type="text" name="b" id="f-b" value="" placeholder="&quot;&quot;">"#), "\(page)")
        withExtendedLifetime(server) {}
    }

    /// Either of the two can be typed, as at the prompts: `""` stores empty
    /// text where emptying the input stores NULL, `\N` NULL where it stores
    /// empty text (a column declared `DEFAULT ''`), in a number field too.
    @Test func nullAndEmptyTextCanBeTyped() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE u (id INTEGER PRIMARY KEY, a TEXT, b TEXT NOT NULL DEFAULT '', n INTEGER, c TEXT DEFAULT '');
            INSERT INTO u VALUES (1, 'x', 'y', 5, 'z');
            """)
        let saved = try browser.submit(try browser.get("/forms/u/1"), ["a": #""""#, "n": #""""#, "c": #"\N"#])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT quote(a), quote(b), quote(n), quote(c) FROM u") == "''|'y'|''|NULL\n")
        // Emptied, each stores its column's nothing, as before.
        _ = try browser.submit(try browser.get("/forms/u/1"), ["a": "x", "b": "", "n": "7", "c": "z"])
        _ = try browser.submit(try browser.get("/forms/u/1"), ["a": "", "n": "", "c": ""])
        let after = try db.query("SELECT quote(a), quote(b), quote(n), quote(c) FROM u")
        #expect(after == "NULL|''|NULL|''\n")
        withExtendedLifetime(server) {}
    }

    /// A row whose key is NULL (SQLite lets an old table's key be) is linked
    /// from the list as `code:=null`, drawn, and saved through its page.
    @Test func aRowWhoseKeyIsNullHasItsPage() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE t (code TEXT PRIMARY KEY, name TEXT);
            INSERT INTO t VALUES ('a', 'A'), (NULL, 'null row');
            """)
        #expect(try browser.get("/forms/t").text.contains(#"href="/forms/t/code%3A%3Dnull""#))
        let page = try browser.get("/forms/t/code%3A%3Dnull")
        #expect(page.status == 200 && page.text.contains(#"value="null row""#), "\(page)")
        let saved = try browser.submit(page, ["name": "renamed"])
        #expect(saved.headers["location"] == "/forms/t/code%3A%3Dnull?saved=name", "\(saved)")
        #expect(try db.query("SELECT quote(code), name FROM t ORDER BY rowid") == "'a'|A\nNULL|renamed\n")
        withExtendedLifetime(server) {}
    }

    /// A notice in the address names the form's fields only: any other
    /// text was printed as a notice the server never gave.
    @Test func anAddressCannotMakeUpANotice() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/signup/1?saved=Your%20password%20was%20reset,firstName")
        #expect(page.text.contains("Saved: First Name.</div>"), "\(page.text)")
        #expect(!page.text.contains("password was reset"))
    }

    /// Paging values that are no page are refused (400), on pages and in
    /// the API: `limit=0` returned one record, `limit=abc` the default.
    @Test func pagingThatIsNoPageIsRefused() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        for query in ["limit=0", "limit=-1", "limit=abc", "offset=-1", "limit=501"] {
            let page = try browser.get("/forms/signup?" + query)
            #expect(page.status == 400, "\(query): \(page.status)")
        }
        #expect(try browser.get("/forms/signup?limit=500").status == 200)
        // A filter or sort naming no field is named as the page and the API call them, not as the command's options.
        let filter = try browser.get("/forms/signup?where=nmae%3Dx")
        #expect(filter.status == 400 && filter.text.contains("Filter: form signup has no field &#39;nmae&#39;"), "\(filter)")
        #expect(try browser.get("/forms/signup?sort=nmae").text.contains("Sort: form signup has no field"))
        let apiSort = try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records?sort=nmae")
        #expect(apiSort.status == 400 && apiSort.text.contains(#""sort: form signup has no field 'nmae'"#), "\(apiSort)")
        let api = try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records?limit=0")
        #expect(api.status == 400 && api.text.contains("limit must be a whole number from 1 to 10000, not '0'"), "\(api)")
    }

    /// A record others refer to under no ON DELETE rule: the delete page
    /// says so before the person tries, with no Delete button.
    @Test func theDeletePageSaysWhoHoldsTheRecordBack() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, boss INTEGER REFERENCES people(id));
            INSERT INTO people VALUES (1, 'Boss', NULL), (2, 'Ann', 1), (3, 'Bo', NULL);

            """)
        let held = try browser.get("/forms/people/1/delete")
        #expect(held.text.contains("cannot be deleted: other records refer to it through people.boss. Change or delete those first."))
        #expect(!held.text.contains("Delete</button>"))
        let page = try browser.get("/forms/people/3/delete")
        #expect(page.text.contains("Delete</button>"))
        // Deleted: the list it lands on says so.
        let deleted = try browser.submit(page, [:])
        #expect(deleted.status == 303 && deleted.headers["location"] == "/forms/people?deleted=3", "\(deleted)")
        #expect(try browser.get("/forms/people?deleted=3").text.contains("Deleted people 3."))
        #expect(try db.query("SELECT count(*) FROM people WHERE id = 3") == "0\n")
        // Said once, to the visitor who deleted it: the address alone is anyone's to write.
        #expect(!(try browser.get("/forms/people?deleted=3").text.contains("Deleted people")))
        let spoof = "/forms/people?deleted=" + "Your account was compromised".replacingOccurrences(of: " ", with: "%20")
        #expect(!(try browser.get(spoof).text.contains("Deleted people")))
    }

    /// A save while a lock keeps even the form from being read (an inferred
    /// form reads the schema) draws no secret back: the page the post came
    /// from names its secure fields (`_secure`). The form's list of them was
    /// empty then, and the page showed the typed password.
    @Test func aLockedDatabaseKeepsTypedSecretsOffThePage() throws {
        let db = try DemoDatabase(sql: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, password TEXT); "
                                  + "INSERT INTO people VALUES (1, 'ann', 'old-pw');")
        let server = try ServeRun(db, environment: ["FORMSTORE_BUSY_TIMEOUT_MS": "200"])
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/people/1")
        #expect(page.text.contains(#"<input type="hidden" name="_secure" value="[&quot;password&quot;]">"#), "\(page.text)")
        let holder = try LockHolder(db.path)
        let refused = try browser.submit(page, ["name": "bo", "password": "typed-secret-7"])
        try holder.release()
        #expect(refused.status == 503, "\(refused)")
        #expect(!refused.text.contains("typed-secret-7"), "\(refused.text)")
        #expect(refused.text.contains("<dd>bo</dd>") && refused.text.contains("A password is not kept here"), "\(refused.text)")
        #expect(try db.query("SELECT name, password FROM people") == "ann|old-pw\n")
    }

    /// A new record's `saved=` names the fields it was given, not a
    /// generated column or the key SQLite filled in.
    @Test func aNewRecordSavedNamesWhatItWasGiven() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, up INTEGER GENERATED ALWAYS AS (a + 1) STORED);

            """)
        let made = try browser.submit(try browser.get("/forms/t/new"), ["a": "1"])
        #expect(made.status == 303, "\(made)")
        #expect(made.headers["location"] == "/forms/t/1?saved=a")
        // Made with nothing typed: said as made, where it read "Nothing changed."
        let empty = try browser.submit(try browser.get("/forms/t/new"), [:])
        #expect(empty.status == 303 && empty.headers["location"] == "/forms/t/2?created=", "\(empty)")
        let page = try browser.get("/forms/t/2?created=")
        #expect(page.text.contains("Created.") && !page.text.contains("Nothing changed."), "\(page.text)")
        // So is one whose fields took their defaults: it said "Saved: name, n.".
        try db.query("CREATE TABLE d (id INTEGER PRIMARY KEY, name TEXT DEFAULT 'x', n INTEGER DEFAULT 3)")
        let defaults = try browser.submit(try browser.get("/forms/d/new"), [:])
        #expect(defaults.status == 303 && defaults.headers["location"] == "/forms/d/1?created=", "\(defaults)")
    }

    /// A field a trigger set back is said as kept, not saved: the page said
    /// "Saved: b." over a row that still held the old value.
    @Test func aFieldATriggerSetBackIsSaidAsKept() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT); INSERT INTO t VALUES (1, 'x', 'y');
            CREATE TRIGGER keep_b AFTER UPDATE OF b ON t BEGIN UPDATE t SET b = OLD.b WHERE id = NEW.id; END;

            """)
        let saved = try browser.submit(try browser.get("/forms/t/1"), ["a": "x2", "b": "web"])
        #expect(saved.status == 303 && saved.headers["location"] == "/forms/t/1?saved=a&kept=b", "\(saved)")
        let page = try browser.get("/forms/t/1?saved=a&kept=b")
        #expect(page.text.contains("Saved: a.") && page.text.contains("The database kept b as it was (a trigger set it back)."),
                "\(page.text)")
        #expect(try db.query("SELECT a, b FROM t") == "x2|y\n")
        withExtendedLifetime(server) {}
    }

    /// A refused save draws no typed password back, and says so: the next
    /// save left the password unchanged without a word.
    @Test func aRefusedSaveSaysATypedPasswordIsNotKept() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT CHECK (length(name) < 5), password TEXT);
            INSERT INTO people VALUES (1, 'ann', 'old');

            """)
        for path in ["/forms/people/1", "/forms/people/new"] {
            let reply = try browser.submit(try browser.get(path), ["name": "much too long", "password": "new-secret-5"])
            #expect(reply.status == 422, "\(path): \(reply)")
            #expect(reply.text.contains("A password is not kept here: type it again before you save."), "\(path): \(reply.text)")
            #expect(!reply.text.contains("new-secret-5"), "\(path)")
        }
        let plain = try browser.submit(try browser.get("/forms/people/1"), ["name": "much too long"])
        #expect(plain.status == 422 && !plain.text.contains("A password is not kept here"), "\(plain.text)")
        #expect(try db.query("SELECT name, password FROM people") == "ann|old\n")
        withExtendedLifetime(server) {}
    }

    /// A save the schema refuses (a CHECK) draws the form again with what was typed.
    @Test func aSaveTheSchemaRefusesKeepsWhatWasTyped() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE c (id INTEGER PRIMARY KEY, label TEXT CHECK (length(label) < 10), other TEXT);
            INSERT INTO c VALUES (1, 'ok', 'o');

            """)
        for path in ["/forms/c/1", "/forms/c/new"] {
            let reply = try browser.submit(try browser.get(path), ["label": "much too long", "other": "I typed this"])
            #expect(reply.status == 422, "\(path): \(reply)")
            // Beside the one field it names.
            #expect(reply.text.contains(#"<p class="error" id="f-label-error">"#)
                    && reply.text.contains("CHECK constraint failed: length(label) &lt; 10"), "\(path)")
            #expect(reply.text.contains("value=\"I typed this\""), "\(path)")
        }
        #expect(try db.query("SELECT label, other FROM c") == "ok|o\n")
    }

    @Test func anInvalidValueComesBackBesideItsField() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let reply = try browser.submit(try browser.get("/forms/register/1"), ["phone": "555-12"])
        #expect(reply.status == 422)
        #expect(reply.text.contains("aria-invalid=\"true\""))
        #expect(reply.text.contains("<p class=\"error\" id=\"f-phone-error\">"))
        #expect(reply.text.contains("value=\"555-12\""))
        #expect(try db.query("SELECT phone FROM registers WHERE id = 1") == "5551234567\n")
    }

    /// A CHECK naming one column is refused beside its field, as a rule is;
    /// one naming several, or a named constraint, above the form. Both were
    /// only above the form.
    @Test func aCheckOnOneColumnIsRefusedBesideItsField() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, age INTEGER CHECK (age >= 0), lo INTEGER, hi INTEGER, CHECK (lo <= hi));
            INSERT INTO t VALUES (1, 5, 1, 2);
            """)
        let reply = try browser.submit(try browser.get("/forms/t/1"), ["age": "-1"])
        #expect(reply.status == 422, "\(reply)")
        #expect(reply.text.contains(#"<p class="error" id="f-age-error">"#) && reply.text.contains("CHECK constraint failed: age &gt;= 0"),
                "\(reply)")
        #expect(reply.text.contains(#"value="-1""#))
        let both = try browser.submit(try browser.get("/forms/t/1"), ["lo": "3"])
        #expect(both.status == 422 && both.text.contains("Nothing was saved: CHECK constraint failed: lo &lt;= hi"), "\(both)")
        #expect(try db.query("SELECT age, lo FROM t") == "5|1\n")
        withExtendedLifetime(server) {}
    }

    /// A save of a record someone deleted meanwhile keeps what was typed, on
    /// the new-record page; it was a bare "no longer exists".
    /// A save while another program holds the database's lock answers 503,
    /// says why, and holds what was typed (a password left out, and said so):
    /// sent again once the lock is gone, it saves. It was a bare error page.
    @Test func aSaveWhileTheDatabaseIsLockedKeepsWhatWasTyped() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db, environment: ["FORMSTORE_BUSY_TIMEOUT_MS": "200"])
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/register/1")
        let holder = try LockHolder(db.path)
        let refused = try browser.submit(page, ["phone": "555 222 3333", "password": "new-secret-1"])
        #expect(refused.status == 503, "\(refused)")
        #expect(refused.text.contains("Nothing was saved: the database is locked by another process (try again)."), "\(refused.text)")
        #expect(refused.text.contains("<dd>555 222 3333</dd>"), "\(refused.text)")
        #expect(!refused.text.contains("new-secret-1"))
        #expect(refused.text.contains("A password is not kept here"))
        try holder.release()
        let again = try browser.submit(refused, [:])
        #expect(again.status == 303, "\(again)")
        #expect(try db.query("SELECT phone, password FROM registers WHERE id = 1") == "5552223333|hunter22\n")
    }

    /// A secure field of any kind is typed where it does not show, and the
    /// stylesheet answers HEAD as GET does.
    @Test func aSecureTextFieldIsAPasswordInputAndAssetsAnswerHEAD() throws {
        let db = try DemoDatabase(sql: "CREATE TABLE keys (id INTEGER PRIMARY KEY, apikey TEXT, flag INTEGER); INSERT INTO keys VALUES (1, 'sk-123', 1);")
        try db.useSpecs(["keys.json": """
            {"formstore": 1, "name": "keys", "table": "keys",
             "sections": [{"fields": [{"key": "apikey", "kind": "text", "secure": true},
                                      {"key": "flag", "kind": "bool", "secure": true}]}]}
            """])
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/keys/1")
        #expect(page.text.contains("<input type=\"password\" name=\"apikey\""), "\(page.text)")
        #expect(page.text.contains("<input type=\"password\" name=\"flag\""), "\(page.text)")
        #expect(!page.text.contains("checkbox"), "\(page.text)")
        #expect(!page.text.contains("sk-123"))
        #expect(try HTTPClient.request("HEAD", port: server.port, "/static/formstore.css").status == 200)
    }

    @Test func aSaveOfADeletedRecordKeepsWhatWasTyped() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, note TEXT);
            INSERT INTO t VALUES (1, 'Ann', 'n');
            """)
        let page = try browser.get("/forms/t/1")
        try db.query("DELETE FROM t")
        let reply = try browser.submit(page, ["name": "Annabelle"])
        #expect(reply.status == 409, "\(reply)")
        #expect(reply.text.contains("Someone else deleted this record since you opened it"), "\(reply)")
        #expect(reply.text.contains(#"value="Annabelle""#) && reply.text.contains(#"action="/forms/t/new""#), "\(reply)")
        let saved = try browser.submit(reply, [:])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT name, note FROM t") == "Annabelle|n\n")
        withExtendedLifetime(server) {}
    }

    @Test func writesWithoutTheCSRFTokenAreRefused() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/register/1")
        var members = PageVisitor.formMembers(page.text).filter { $0.0 != "_csrf" }
        members = members.map { $0.0 == "phone" ? ("phone", "5550000000") : $0 }
        #expect(try browser.post("/forms/register/1", members).status == 403)
        #expect(try browser.post("/forms/register/1", members + [("_csrf", String(repeating: "0", count: 64))]).status == 403)
        // A token of another browser's page does not do either.
        let other = PageVisitor(port: server.port)
        let otherToken = PageVisitor.formMembers(try other.get("/forms/register/1").text).first { $0.0 == "_csrf" }!.1
        #expect(try browser.post("/forms/register/1", members + [("_csrf", otherToken)]).status == 403)
        #expect(try browser.post("/forms/register/1/delete", []).status == 403)
        #expect(try db.query("SELECT count(*), phone FROM registers WHERE id = 1") == "1|5551234567\n")
    }

    @Test func newRecordsAreCreatedAndDeletedAfterConfirming() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let blank = try browser.get("/forms/signup/new")
        #expect(blank.status == 200)
        let refused = try browser.submit(blank, ["firstName": "Cy"])
        #expect(refused.status == 422, "\(refused)")
        let created = try browser.submit(refused, ["firstName": "Cy", "lastName": "Dee", "email": "cy@example.com",
                                                   "password": "s3cret-pass", "age": "30"])
        #expect(created.status == 303, "\(created)")
        #expect(created.headers["location"]?.hasPrefix("/forms/signup/3?saved=") == true)
        #expect(try db.query("SELECT firstName, age FROM signups WHERE id = 3") == "Cy|30\n")
        let confirm = try browser.get("/forms/signup/3/delete")
        #expect(confirm.status == 200 && confirm.text.contains("This cannot be undone."))
        let deleted = try browser.submit(confirm, [:])
        #expect(deleted.status == 303 && deleted.headers["location"] == "/forms/signup?deleted=3")
        #expect(try db.query("SELECT count(*) FROM signups WHERE id = 3") == "0\n")
    }

    @Test func editModeShowsTheRecordUntilEditIsChosen() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let shown = try browser.get("/forms/profile/1")
        #expect(shown.text.contains("required aria-required=\"true\" value=\"Ann\" autocomplete=\"off\" readonly"), "\(shown)")
        #expect(shown.text.contains("href=\"/forms/profile/1?edit=1\">Edit</a>"))
        #expect(!shown.text.contains("<button type=\"submit\">Save</button>"))
        // The spec's Delete action shows only while editing, and editing has a way back.
        #expect(!shown.text.contains("/delete\">Delete…</a>") && !shown.text.contains(">Cancel</a>"))
        let editing = try browser.get("/forms/profile/1?edit=1")
        #expect(!editing.text.contains("readonly"))
        #expect(editing.text.contains("href=\"/forms/profile/1/delete\">Delete…</a>"))
        #expect(editing.text.contains("href=\"/forms/profile/1\">Cancel</a>"))
        let saved = try browser.submit(editing, ["lastName": "Lee-Park"])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT lastName FROM profiles WHERE id = 1") == "Lee-Park\n")
    }

    @Test func aDraftIsOfferedWhenTheRecordIsOpenedAgain() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/register/2")
        var members = PageVisitor.formMembers(page.text)
        members = members.map { $0.0 == "email" ? ("email", "bo@new.example") : $0 }
        #expect(try browser.post("/forms/register/2/draft", members).status == 204)
        let reopened = try browser.get("/forms/register/2")
        #expect(reopened.text.contains("You have unsaved changes to this record"), "\(reopened)")
        #expect(reopened.text.contains("value=\"bo@example.com\""))
        // Another browser is not offered it.
        #expect(!(try PageVisitor(port: server.port).get("/forms/register/2")).text.contains("unsaved changes"))
        let restoreForm = String(reopened.text[reopened.text.range(of: "<form method=\"post\" action=\"/forms/register/2/draft/restore\"")!.lowerBound...])
        let restored = try browser.submit(HTTPReply(status: 200, headers: [:], body: Data(restoreForm.utf8)), [:])
        #expect(restored.status == 200)
        #expect(restored.text.contains("value=\"bo@new.example\""))
        let saved = try browser.submit(restored, [:])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT email FROM registers WHERE id = 2") == "bo@new.example\n")
        #expect(!(try browser.get("/forms/register/2")).text.contains("unsaved changes"))
    }

    /// A draft restored over a field someone else saved since: the choice
    /// page, yours checked, and the draft still holding what was typed until
    /// the visitor chooses. The restore showed theirs without a word and
    /// wrote the draft again without the visitor's value.
    @Test func aDraftRestoredOverAnotherSaveOffersTheChoice() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port), other = PageVisitor(port: server.port)
        let page = try browser.get("/forms/register/2")
        let members = PageVisitor.formMembers(page.text).map { $0.0 == "email" ? ("email", "mine@example.com") : $0 }
        #expect(try browser.post("/forms/register/2/draft", members).status == 204)
        #expect(try other.submit(try other.get("/forms/register/2"), ["email": "theirs@example.com"]).status == 303)
        let reopened = try browser.get("/forms/register/2")
        let restoreForm = String(reopened.text[reopened.text.range(of: "<form method=\"post\" action=\"/forms/register/2/draft/restore\"")!.lowerBound...])
        let restored = try browser.submit(HTTPReply(status: 200, headers: [:], body: Data(restoreForm.utf8)), [:])
        #expect(restored.status == 409, "\(restored)")
        #expect(restored.text.contains("value=\"mine@example.com\" checked> Yours"), "\(restored)")
        #expect(restored.text.contains("value=\"theirs@example.com\"> Theirs (saved now)"))
        // Left there, the draft still holds the visitor's value.
        let again = try browser.get("/forms/register/2")
        #expect(again.text.contains("You have unsaved changes to this record"), "\(again)")
        #expect(try db.querySidecar("SELECT payload LIKE '%mine@example.com%' FROM formstore_drafts") == "1\n")
        let saved = try browser.submit(restored, [:])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT email FROM registers WHERE id = 2") == "mine@example.com\n")
    }

    /// What is typed on the new-record page is kept as the visitor's draft
    /// and offered when they open the page again; created, it is gone. The
    /// page's posts were answered and dropped.
    @Test func aNewRecordBeingTypedIsKeptAsADraft() throws {
        let (db, server, browser) = try Self.served("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, note TEXT);
            """)
        let page = try browser.get("/forms/t/new")
        let members = PageVisitor.formMembers(page.text).map { $0.0 == "name" ? ("name", "Half typed") : $0 }
        #expect(try browser.post("/forms/t/new/draft", members).status == 204)
        let again = try browser.get("/forms/t/new")
        #expect(again.text.contains("You have an unsaved new record"), "\(again)")
        #expect(!(try PageVisitor(port: server.port).get("/forms/t/new")).text.contains("unsaved new record"))
        let restoreForm = String(again.text[again.text.range(of: "<form method=\"post\" action=\"/forms/t/new/draft/restore\"")!.lowerBound...])
        let restored = try browser.submit(HTTPReply(status: 200, headers: [:], body: Data(restoreForm.utf8)), [:])
        #expect(restored.status == 200 && restored.text.contains(#"value="Half typed""#), "\(restored)")
        let created = try browser.submit(restored, ["note": "done"])
        #expect(created.status == 303, "\(created)")
        #expect(try db.query("SELECT name, note FROM t") == "Half typed|done\n")
        #expect(!(try browser.get("/forms/t/new")).text.contains("unsaved new record"))
        // Discarded, it is not offered again.
        #expect(try browser.post("/forms/t/new/draft", members).status == 204)
        let offered = try browser.get("/forms/t/new")
        let discardForm = String(offered.text[offered.text.range(of: "<form method=\"post\" action=\"/forms/t/new/draft/discard\"")!.lowerBound...])
        #expect(try browser.submit(HTTPReply(status: 200, headers: [:], body: Data(discardForm.utf8)), [:]).status == 303)
        #expect(!(try browser.get("/forms/t/new")).text.contains("unsaved new record"))
    }

    /// Another writer's NULL become empty text is a change the merge sees,
    /// though an input draws both alike: the page drawn from NULL meets it as
    /// a conflict, theirs offered as `""`, which chosen stores empty text.
    /// Before, the second save wrote over it without a word.
    @Test func nullBecomeEmptyTextUnderneathIsAConflict() throws {
        let (db, server, first) = try Self.served("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, note TEXT, other TEXT);
            INSERT INTO t VALUES (1, NULL, 'o');
            """)
        let second = PageVisitor(port: server.port)
        let firstPage = try first.get("/forms/t/1"), secondPage = try second.get("/forms/t/1")
        #expect(try first.submit(firstPage, ["note": #""""#]).status == 303)
        #expect(try db.query("SELECT quote(note) FROM t") == "''\n")
        let conflict = try second.submit(secondPage, ["note": "mine"])
        #expect(conflict.status == 409, "\(conflict)")
        #expect(conflict.text.contains(#"value="&quot;&quot;"> Theirs (saved now)"#), "\(conflict)")
        let theirs = try second.submit(conflict, ["note": #""""#])
        #expect(theirs.status == 303, "\(theirs)")
        #expect(try db.query("SELECT quote(note) FROM t") == "''\n")
    }

    @Test func twoBrowsersEditingOneFieldMeetAConflict() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let first = PageVisitor(port: server.port), second = PageVisitor(port: server.port)
        let firstPage = try first.get("/forms/register/1"), secondPage = try second.get("/forms/register/1")
        #expect(try first.submit(firstPage, ["email": "first@example.com"]).status == 303)
        let conflict = try second.submit(secondPage, ["email": "second@example.com", "zip": "94110"])
        #expect(conflict.status == 409, "\(conflict)")
        #expect(conflict.text.contains("value=\"second@example.com\" checked> Yours"))
        #expect(conflict.text.contains("value=\"first@example.com\"> Theirs (saved now)"))
        #expect(try db.query("SELECT email, zip FROM registers WHERE id = 1") == "first@example.com|94103\n")
        let resolved = try second.submit(conflict, [:])
        #expect(resolved.status == 303, "\(resolved)")
        #expect(try db.query("SELECT email, zip FROM registers WHERE id = 1") == "second@example.com|94110\n")
    }
}
