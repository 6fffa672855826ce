import FormStoreTestSupport
import Foundation
import Testing

/// Record keys holding `/` or the word `new` reached through percent-encoded
/// URLs, and a record's history page: who, when, through what, old → new.
@Suite(.serialized) struct ServeKeyAndHistoryTests {
    @Test func keysWithASlashOrTheWordNewAreReachable() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE pages (slug TEXT PRIMARY KEY, title TEXT NOT NULL);
            INSERT INTO pages VALUES ('a/b', 'Slashed'), ('new', 'Called new');
            """)
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let list = try browser.get("/forms/pages")
        #expect(list.text.contains("href=\"/forms/pages/a%2Fb\""), "\(list.text)")
        #expect(list.text.contains("href=\"/forms/pages/%6Eew\""))
        let slashed = try browser.get("/forms/pages/a%2Fb")
        #expect(slashed.status == 200 && slashed.text.contains("value=\"Slashed\""), "\(slashed)")
        let named = try browser.get("/forms/pages/%6Eew")
        #expect(named.status == 200 && named.text.contains("value=\"Called new\""), "\(named)")
        let blank = try browser.get("/forms/pages/new")
        #expect(blank.status == 200 && blank.text.contains("<button type=\"submit\">Create</button>") && !blank.text.contains("Called new"))

        let saved = try browser.submit(named, ["title": "Still new"])
        #expect(saved.status == 303 && saved.headers["location"] == "/forms/pages/%6Eew?saved=title", "\(saved)")
        #expect(try browser.submit(slashed, ["title": "Both"]).status == 303)
        #expect(try db.query("SELECT slug, title FROM pages ORDER BY slug") == "a/b|Both\nnew|Still new\n")
        #expect(try HTTPClient.request("GET", port: server.port, "/api/forms/pages/records/a%2Fb").status == 200)
    }

    /// The delete page says what the schema's ON DELETE rules take with the record.
    @Test func theDeletePageSaysWhatGoesWithTheRecord() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer(id) ON DELETE CASCADE);
            CREATE TABLE lines (id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders(id) ON DELETE CASCADE);
            INSERT INTO customer VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cy');
            INSERT INTO orders VALUES (10, 1), (11, 1), (12, 3);
            INSERT INTO lines VALUES (100, 12), (101, 12);
            """)
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        #expect(try browser.get("/forms/customer/1/delete").text.contains("<p>With it: 2 rows of orders deleted (ON DELETE CASCADE).</p>"))
        #expect(!(try browser.get("/forms/customer/2/delete").text.contains("With it")))
        // More than one, as a list: the order, and its lines in turn.
        #expect(try browser.get("/forms/customer/3/delete").text.contains(
            "<p>With it:</p>\n<ul><li>1 row of orders deleted (ON DELETE CASCADE)</li>"
                + "<li>2 rows of lines deleted (ON DELETE CASCADE)</li></ul>"))
    }

    /// A record whose foreign key points at itself (its own manager) is no
    /// other record referring to it: the page offers Delete, as the database
    /// and `delete` allow it, where it said the record was held back through
    /// its own column. Another row referring to it still holds it back.
    @Test func aRecordReferringToItselfIsOfferedForDeletion() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, manager_id INTEGER REFERENCES emp(id));
            INSERT INTO emp VALUES (4, 'Zoë', 4), (5, 'Max', 5), (6, 'Ida', 5);
            """)
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/emp/4/delete")
        #expect(page.text.contains("Delete record <strong>4</strong> of emp?"), "\(page.text)")
        try #require(page.text.contains("Delete</button>") && !page.text.contains("cannot be deleted"))
        let deleted = try browser.submit(page, [:])
        #expect(deleted.status == 303 && deleted.headers["location"] == "/forms/emp?deleted=4", "\(deleted)")
        #expect(try db.query("SELECT id FROM emp ORDER BY id") == "5\n6\n")
        // Max is his own manager and Ida's: Ida holds him back.
        let held = try browser.get("/forms/emp/5/delete")
        #expect(held.text.contains("cannot be deleted: other records refer to it through emp.manager_id."), "\(held.text)")
        #expect(!held.text.contains("Delete</button>"))
        withExtendedLifetime(server) {}
    }

    /// A table or key named `.` or `..` is linked as `\.` and `\..`: a browser
    /// resolves `..` and `%2E%2E` segments away (`/forms/..` led to the home page).
    @Test func dotSegmentsAreLinkedEncoded() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE ".." (k TEXT PRIMARY KEY, v TEXT);
            INSERT INTO ".." VALUES ('.', 'one dot'), ('..', 'two dots');
            """)
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        #expect(try browser.get("/").text.contains("href=\"/forms/%5C..\""))
        let list = try browser.get("/forms/%5C..")
        #expect(list.text.contains("href=\"/forms/%5C../%5C.\"") && list.text.contains("href=\"/forms/%5C../%5C..\""),
                "\(list.text)")
        #expect(try browser.get("/forms/%5C../%5C.").text.contains("value=\"one dot\""))
        #expect(try browser.get("/forms/%5C../%5C..").text.contains("value=\"two dots\""))
    }

    /// A BLOB key, a date key and a composite key holding a comma: every link
    /// of the list leads to its record, and `list` shows each key as it is typed.
    @Test func keysOfBlobsAndDatesAreLinkedAsTyped() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE blobs (k BLOB PRIMARY KEY, v TEXT);
            INSERT INTO blobs VALUES (x'00ff', 'binary'), (x'414243', 'reads as text');
            CREATE TABLE days (d DATE PRIMARY KEY, note TEXT);
            INSERT INTO days VALUES ('2024-02-29', 'leap');
            CREATE TABLE pairs (a BLOB, b TEXT, v TEXT, PRIMARY KEY (a, b));
            INSERT INTO pairs VALUES (x'01', 'x,y', 'pair');
            """)
        let listed = try db.run(["list", "blobs"])
        #expect(listed.output.contains("x'00FF'") && listed.output.contains("x'414243'"), "\(listed)")
        #expect(try db.run(["show", "blobs", "x'00FF'"]).output.contains("binary"))
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        for (form, value) in [("blobs", "binary"), ("blobs", "reads as text"), ("days", "leap"), ("pairs", "pair")] {
            let list = try browser.get("/forms/\(form)")
            let links = list.text.split(separator: "href=\"").compactMap { part -> String? in
                let link = String(part.prefix { $0 != "\"" })
                return link.hasPrefix("/forms/\(form)/") && !link.hasSuffix("/new") ? link : nil
            }
            #expect(!links.isEmpty, "\(form)")
            let pages = try links.map { try browser.get($0) }
            #expect(pages.allSatisfy { $0.status == 200 }, "\(links)")
            #expect(pages.contains { $0.text.contains("value=\"\(value)\"") }, "\(form): \(links)")
        }
    }

    /// A view without a key names no record: its rows are shown unlinked (no
    /// link to `/forms/v/`, which finds nothing), and a view nothing can be
    /// typed into offers no New record.
    @Test func aViewWithoutAKeyIsShownNotLinked() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO staff VALUES (1, 'Ann'), (2, 'Bob');
            CREATE VIEW names AS SELECT id, upper(name) AS shout FROM staff;
            """)
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let list = try browser.get("/forms/names")
        #expect(list.status == 200)
        #expect(list.text.contains("<td>ANN</td>") && list.text.contains("<td>BOB</td>"), "\(list.text)")
        #expect(!list.text.contains("href=\"/forms/names/"), "\(list.text)")
        #expect(!list.text.contains(">Key</th>"))
        #expect(!list.text.contains("New record"))
        // Its new-record page, reached by address, says so instead of a form of read-only inputs.
        let new = try browser.get("/forms/names/new")
        #expect(new.status == 403 && new.text.contains("takes no new records: every field of it is read-only"), "\(new)")
        #expect(!new.text.contains("<input"), "\(new.text)")
        // A table still links its records and offers a new one.
        let table = try browser.get("/forms/staff")
        #expect(table.text.contains("href=\"/forms/staff/1\"") && table.text.contains("New record"))
        // The forms page calls the view a view.
        let forms = try browser.get("/")
        #expect(forms.text.contains("names · view names ·") && forms.text.contains("staff · table staff ·"), "\(forms.text)")
    }

    /// A composite key whose value holds `,` and `=` is shown as it is typed,
    /// so the text beside the link reads back as the same record.
    @Test func aCompositeKeyIsShownAsTyped() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE pairs (a TEXT, b TEXT, v TEXT, PRIMARY KEY (a, b));
            INSERT INTO pairs VALUES ('a', 'c,b=3', 'tricky');
            """)
        let server = try ServeRun(db)
        let list = try PageVisitor(port: server.port).get("/forms/pairs")
        #expect(list.text.contains(#">a=a,b=c\,b\=3</a>"#), "\(list.text)")
        #expect(try db.run(["show", "pairs", #"a=a,b=c\,b\=3"#]).output.contains("tricky"))
    }

    /// An emptied field stores what the command stores: NULL where the
    /// column allows it, and a NOT NULL column without a default is refused
    /// as required (the page stored `''` in both).
    @Test func anEmptiedFieldFollowsTheCommandsRule() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT);
            INSERT INTO person VALUES (1, 'Ann', 'hi');
            """)
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/person/1")
        let refused = try browser.submit(page, ["name": ""])
        #expect(refused.status == 422 && refused.text.contains("required"), "\(refused)")
        #expect(try db.query("SELECT quote(name), quote(note) FROM person") == "'Ann'|'hi'\n")
        #expect(try browser.submit(try browser.get("/forms/person/1"), ["note": ""]).status == 303)
        #expect(try db.query("SELECT quote(name), quote(note) FROM person") == "'Ann'|NULL\n")
    }

    @Test func aRecordPageLinksItsHistoryWithWhoWhenAndValues() throws {
        let db = try DemoDatabase()
        #expect(try db.run(["init"]).code == 0)
        let server = try ServeRun(db)
        let patched = try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                             headers: ["Content-Type": "application/json"],
                                             body: Data(#"{"age": 41, "password": "another-pass-1"}"#.utf8))
        #expect(patched.status == 200, "\(patched)")
        let browser = PageVisitor(port: server.port)
        #expect(try browser.get("/forms/signup/1").text.contains("<a href=\"/forms/signup/1/history\">History</a>"))
        let history = try browser.get("/forms/signup/1/history")
        #expect(history.status == 200, "\(history)")
        #expect(history.text.contains("<td rowspan=\"2\">local</td><td rowspan=\"2\">web</td>"), "\(history.text)")
        #expect(history.text.contains("<td>34</td><td>41</td>"), "\(history.text)")
        #expect(history.text.contains("changed (a secure field: no values kept)"))
        #expect(!history.text.contains("another-pass-1") && !history.text.contains("hunter22"))
        #expect(try browser.get("/forms/signup/99/history").status == 404)
    }

    /// NULL and empty text are drawn apart, as the records list draws them
    /// (empty text a dim `""`, NULL an empty cell) and as `formstore history`
    /// prints them (`(null)`, `(empty)`). NULL was the word "empty" and empty
    /// text a blank cell, so a NULL become `''` read as no change at all.
    @Test func aHistoryPageDrawsNullAndEmptyTextApart() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE u (id INTEGER PRIMARY KEY, note TEXT);
            INSERT INTO u VALUES (1, NULL);
            """)
        #expect(try db.run(["init"]).code == 0)
        let server = try ServeRun(db)
        for body in [#"{"note": ""}"#, #"{"note": null}"#] {
            let patched = try HTTPClient.request("PATCH", port: server.port, "/api/forms/u/records/1",
                                                 headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(patched.status == 200, "\(patched)")
        }
        let printed = try db.run(["history", "u", "1"])
        #expect(printed.output.contains("note   (null)   (empty)\n") && printed.output.contains("note   (empty)  (null)\n"), "\(printed)")
        let history = try PageVisitor(port: server.port).get("/forms/u/1/history")
        #expect(history.status == 200, "\(history)")
        // Newest first: '' become NULL, then NULL become ''.
        let nulled = try #require(history.text.range(of: #"<th scope="row">note</th><td class="empty-text">""</td><td></td>"#),
                                  "\(history.text)")
        let emptied = try #require(history.text.range(of: #"<th scope="row">note</th><td></td><td class="empty-text">""</td>"#),
                                   "\(history.text)")
        #expect(nulled.lowerBound < emptied.lowerBound)
        #expect(!history.text.contains(">empty</span>"), "\(history.text)")
    }

    /// On a database that keeps no history yet, the page says so, as
    /// `formstore history` does, where "no saved changes" read as "never changed".
    @Test func aHistoryPageSaysWhenNoneIsKept() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let history = try PageVisitor(port: server.port).get("/forms/signup/1/history")
        #expect(history.status == 200, "\(history)")
        #expect(history.text.contains("No history is kept for this database yet: saves record it once "), "\(history.text)")
    }
}
