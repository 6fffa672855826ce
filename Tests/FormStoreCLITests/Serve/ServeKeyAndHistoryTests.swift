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
}
