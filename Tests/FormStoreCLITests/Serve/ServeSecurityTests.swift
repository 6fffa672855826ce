import FormStoreTestSupport
import Foundation
import Testing

/// What `formstore serve` refuses: hostile values as markup, a public
/// address without authentication, clients without it, bodies over the
/// limit, and every write on a read-only server.
@Suite(.serialized) struct ServeSecurityTests {
    static let hostile = packageRoot + "/Fixtures/bad/databases/html-injection.sql"

    /// Markup a page may hold only if it came from the data unescaped.
    static func injected(_ html: String) -> [String] {
        ["<script>alert", "<img src=x", "<b onmouseover", "</textarea><script", "\"><script"].filter(html.contains)
    }

    @Test func hostileValuesAreShownAsText() throws {
        let db = try DemoDatabase(sql: String(contentsOfFile: Self.hostile, encoding: .utf8))
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let home = try browser.get("/")
        #expect(home.status == 200)
        #expect(Self.injected(home.text).isEmpty, "\(home)")
        #expect(home.text.contains("&lt;script&gt;alert(&#39;table&#39;)&lt;/script&gt;"))
        let paths = ["/forms/people", "/forms/people/1", "/forms/people/2", "/forms/people/new", "/forms/tags",
                     "/forms/" + PageVisitor.encode("<script>alert('table')</script>").replacingOccurrences(of: "+", with: "%20"),
                     "/forms/tags/" + PageVisitor.encode("<b onmouseover=alert(5)>x</b>").replacingOccurrences(of: "+", with: "%20"),
                     "/forms/people/1/delete", "/forms/%3Cscript%3E"]
        for path in paths {
            let page = try browser.get(path)
            // 400: a key with '/' is one segment now, and this one does not read as a key.
            #expect([200, 400, 404].contains(page.status), "\(path): \(page)")
            #expect(Self.injected(page.text).isEmpty, "\(path): \(Self.injected(page.text))")
        }
        let record = try browser.get("/forms/people/1")
        #expect(record.text.contains("value=\"&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;\""))
        #expect(record.text.contains("&lt;/textarea&gt;&lt;script&gt;alert(2)&lt;/script&gt;"))
        // Saving another field leaves the hostile values exactly as stored.
        let before = try db.query("SELECT name, bio, kind FROM people WHERE id = 1")
        #expect(try browser.submit(record, ["v": "x"]).status != 500)
        let saved = try browser.submit(try browser.get("/forms/people/2"), ["name": "plain"])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT name, bio, kind FROM people WHERE id = 1") == before)
    }

    @Test func aPublicAddressNeedsAuthentication() throws {
        let db = try DemoDatabase()
        let run = try db.run(["serve", "--listen", "0.0.0.0:0"])
        #expect(run.code == 64, "\(run)")
        #expect(run.errors.contains("--token or --users"))
        let malformed = try db.run(["serve", "--listen", "here"])
        #expect(malformed.code == 64)
        // IPv6's loopback is said as what it is: not a public address, but an address family not served.
        let six = try db.run(["serve", "--listen", "[::1]:0"])
        #expect(six.code == 64 && six.errors.hasPrefix("Error: --listen: the server listens on IPv4 only, not on '[::1]': "
                                                       + "give an IPv4 address (127.0.0.1:0 for the loopback)"), "\(six)")
    }

    @Test func withATokenNothingIsServedToStrangers() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db, ["--token"])
        let token = try #require(server.token)
        let stranger = PageVisitor(port: server.port)
        let page = try stranger.get("/forms/signup/1")
        #expect(page.status == 303 && page.headers["location"] == "/login?next=%2Fforms%2Fsignup%2F1", "\(page)")
        #expect(try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records/1").status == 401)
        #expect(try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records/1",
                                       headers: ["Authorization": "Bearer " + String(repeating: "0", count: 64)]).status == 401)
        #expect(try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records/1",
                                       headers: ["Authorization": "Bearer " + token]).status == 200)
        let login = try stranger.get("/login")
        #expect(try stranger.submit(login, ["secret": "wrong"]).status == 401)
        let loggedIn = try stranger.submit(login, ["secret": token])
        #expect(loggedIn.status == 303, "\(loggedIn)")
        #expect(try stranger.get("/forms/signup/1").status == 200)
    }

    @Test func usersFromAPasswordFileLogIn() throws {
        let db = try DemoDatabase()
        let line = try db.run(["serve", "--hash-password", "ann"], stdin: "correct horse\n")
        #expect(line.code == 0, "\(line)")
        #expect(!line.output.contains("correct horse"))
        let file = db.scratch.path + "/users"
        try line.output.write(toFile: file, atomically: true, encoding: .utf8)
        let server = try ServeRun(db, ["--users", file])
        let browser = PageVisitor(port: server.port)
        let login = try browser.get("/login")
        #expect(try browser.submit(login, ["user": "ann", "secret": "wrong horse"]).status == 401)
        #expect(try browser.submit(login, ["user": "ann", "secret": "correct horse"]).status == 303)
        #expect(try browser.get("/forms/signup").status == 200)
        // A page asked for before logging in is where the login lands.
        let visitor = PageVisitor(port: server.port)
        let asked = try visitor.get("/forms/signup/1/history")
        let address = try #require(asked.headers["location"], "\(asked)")
        let again = try visitor.submit(try visitor.get(address), ["user": "ann", "secret": "wrong horse"])
        #expect(again.status == 401)
        let landed = try visitor.submit(again, ["user": "ann", "secret": "correct horse"])
        #expect(landed.status == 303 && landed.headers["location"] == "/forms/signup/1/history", "\(landed)")
    }

    /// After a login the browser returns to the page it first asked for,
    /// its query kept, where it landed on `/`. Only a path of this server is
    /// returned to: an address another site could be reached by (`//host`,
    /// `/\host`, a scheme, a tab a browser drops, a line break) lands on `/`,
    /// and the login page does not carry it.
    @Test func aLoginReturnsToThePageFirstAskedFor() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db, ["--token"])
        let token = try #require(server.token)
        let browser = PageVisitor(port: server.port)
        let asked = try browser.get("/forms/signup?q=Ann%20B&sort=-age")
        #expect(asked.status == 303, "\(asked)")
        let address = try #require(asked.headers["location"])
        #expect(address == "/login?next=%2Fforms%2Fsignup%3Fq%3DAnn%2520B%26sort%3D-age", "\(asked)")
        let login = try browser.get(address)
        #expect(login.text.contains(#"<input type="hidden" name="next" value="/forms/signup?q=Ann%20B&amp;sort=-age">"#), "\(login.text)")
        let landed = try browser.submit(login, ["secret": token])
        #expect(landed.status == 303 && landed.headers["location"] == "/forms/signup?q=Ann%20B&sort=-age", "\(landed)")
        #expect(try browser.get(landed.headers["location"] ?? "/").status == 200)

        // A login asked for directly lands on the forms, as before.
        let plain = PageVisitor(port: server.port)
        #expect(try plain.submit(try plain.get("/login"), ["secret": token]).headers["location"] == "/")

        for elsewhere in ["//evil.example/x", "https://evil.example/", "/\\evil.example", "\\evil.example",
                          "/\t/evil.example", "javascript:alert(1)", "evil.example", "/\r\nSet-Cookie: x=1", ""] {
            let visitor = PageVisitor(port: server.port)
            let page = try visitor.get("/login?next=" + PageVisitor.encode(elsewhere))
            #expect(page.status == 200 && !page.text.contains("name=\"next\""), "\(elsewhere): \(page.text)")
            // Posted all the same (a page of the attacker's cannot post here without the CSRF token, but still).
            let landed = try visitor.submit(page, ["secret": token, "next": elsewhere])
            #expect(landed.status == 303 && landed.headers["location"] == "/", "\(elsewhere): \(landed)")
        }
    }

    /// A login gives the browser a new cookie id and logs that one in: an
    /// id planted in a browser before it logged in (session fixation: a page
    /// on another port of the same host may set it) stays logged out, where
    /// it was the one logged in and its CSRF token was the attacker's to
    /// compute. `/logout` (a form with its CSRF token) logs the id out.
    @Test func aLoginGivesANewSessionAndLogoutEndsIt() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db, ["--token"])
        let token = try #require(server.token)
        let planted = String(repeating: "a", count: 64)
        let browser = PageVisitor(port: server.port)
        browser.cookies["formstore_session"] = planted
        let loggedIn = try browser.submit(try browser.get("/login"), ["secret": token])
        #expect(loggedIn.status == 303, "\(loggedIn)")
        let session = try #require(browser.cookies["formstore_session"])
        #expect(session != planted && session.count == 64)
        let attacker = PageVisitor(port: server.port)
        attacker.cookies["formstore_session"] = planted
        let stolen = try attacker.get("/forms/signup/1")
        #expect(stolen.status == 303 && stolen.headers["location"] == "/login?next=%2Fforms%2Fsignup%2F1", "\(stolen)")
        let page = try browser.get("/forms/signup/1")
        #expect(page.status == 200 && page.text.contains("href=\"/logout\">Log out</a>"))

        let out = try browser.get("/logout")
        #expect(out.status == 200 && out.text.contains("name=\"_csrf\""), "\(out)")
        #expect(try browser.post("/logout", [("_csrf", "forged")]).status == 403)
        #expect(try browser.get("/forms/signup/1").status == 200)
        let left = try browser.submit(out, [:])
        #expect(left.status == 303 && left.headers["location"] == "/login", "\(left)")
        let again = PageVisitor(port: server.port)
        again.cookies["formstore_session"] = session
        #expect(try again.get("/forms/signup/1").status == 303)
        #expect(try browser.get("/forms/signup/1").status == 303)
    }

    /// With `--users`, a script logs in with HTTP's Basic (`curl -u`) or
    /// `Bearer USER:PASSWORD`, and a 401 says how; it said only `Bearer TOKEN`.
    @Test func usersLogInToTheAPIWithBasicOrBearer() throws {
        let db = try DemoDatabase()
        let line = try db.run(["serve", "--hash-password", "ann"], stdin: "correct horse\n")
        let file = db.scratch.path + "/users"
        try line.output.write(toFile: file, atomically: true, encoding: .utf8)
        let server = try ServeRun(db, ["--users", file])
        let path = "/api/forms/signup/records/1"
        let basic = "Basic " + Data("ann:correct horse".utf8).base64EncodedString()
        #expect(try HTTPClient.request("GET", port: server.port, path, headers: ["Authorization": basic]).status == 200)
        #expect(try HTTPClient.request("GET", port: server.port, path, headers: ["Authorization": "Bearer ann:correct horse"]).status == 200)
        let wrong = try HTTPClient.request("GET", port: server.port, path,
                                           headers: ["Authorization": "Basic " + Data("ann:wrong".utf8).base64EncodedString()])
        #expect(wrong.status == 401 && wrong.text.contains("Bearer USER:PASSWORD, or Basic"), "\(wrong)")
    }

    /// A key holding a bidi override is kept apart from the words around it
    /// in a page's `<title>` and heading, which no element isolates: "Delete
    /// tag ab‮cd?" read backwards from the key on.
    @Test func aKeyWithABidiOverrideIsIsolatedInTitles() throws {
        let db = try DemoDatabase(sql: "CREATE TABLE tag (k TEXT PRIMARY KEY, v TEXT); INSERT INTO tag VALUES ('ab' || char(8238) || 'cd', 'v');")
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/tag/ab%E2%80%AEcd/delete")
        #expect(page.status == 200, "\(page)")
        #expect(page.text.contains("<title>Delete tag \u{2068}ab\u{202E}cd\u{2069}? · FormStore</title>"), "\(page.text.prefix(400))")
        #expect(page.text.contains("<h1>Delete tag \u{2068}ab\u{202E}cd\u{2069}?</h1>"))
        // A key without one is written as it is.
        #expect(!(try browser.get("/forms/signup/1").text.contains("\u{2068}")))
    }

    /// Without a login the server answers to loopback names only: a page
    /// whose own name an attacker rebinds to 127.0.0.1 (DNS rebinding) was
    /// same-origin with it, and read and wrote every record.
    @Test func anotherHostNameIsRefusedWithoutALogin() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        for host in ["evil.example:\(server.port)", "evil.example", "127.0.0.1.evil.example", "10.0.0.1"] {
            let read = try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records/1", headers: ["Host": host])
            #expect(read.status == 403 && read.text.contains("answers to localhost only"), "\(host): \(read)")
        }
        let write = try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                           headers: ["Host": "evil.example", "Content-Type": "application/json"],
                                           body: Data(#"{"age": 99}"#.utf8))
        #expect(write.status == 403)
        #expect(try db.query("SELECT age FROM signups WHERE id = 1") == "34\n")
        for host in ["localhost:\(server.port)", "127.0.0.1", "[::1]:\(server.port)", "app.localhost"] {
            #expect(try HTTPClient.request("GET", port: server.port, "/", headers: ["Host": host]).status == 200, "\(host)")
        }
    }

    /// A secure field cannot be filtered or sorted by: `where=password~a`,
    /// then `ab`…, read it a character at a time through the list and the API.
    @Test func aSecretIsNeitherFilteredNorSortedBy() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        for query in ["where=password~h", "where=password%3Ehunter", "sort=password", "sort=-password"] {
            #expect(try browser.get("/forms/signup?" + query).status == 400, "\(query)")
            #expect(try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records?" + query).status == 400, "\(query)")
        }
        #expect(!(try browser.get("/forms/signup").text.contains("sort=password")))
        let listed = try db.run(["list", "signup", "--where", "password~h"])
        #expect(listed.code == 64 && listed.errors.contains("--where: password of signup is secure"), "\(listed)")
    }

    @Test func anOversizedBodyIsRefused() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db, ["--max-body", "4096"])
        let big = Data(repeating: UInt8(ascii: "a"), count: 100_000)
        let api = try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                         headers: ["Content-Type": "application/json"], body: big)
        #expect(api.status == 413, "\(api)")
        // JSON, as the API's other errors are.
        #expect(api.headers["content-type"] == "application/json" && api.text.contains(#""error":"The request body is larger than 4096 bytes.""#), "\(api)")
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/signup/1")
        let reply = try browser.submit(page, ["firstName": String(repeating: "x", count: 10_000)])
        #expect(reply.status == 413)
        #expect(try db.query("SELECT firstName FROM signups WHERE id = 1") == "Ann\n")
        // Headers past the library's limit are refused too.
        let huge = try HTTPClient.request("GET", port: server.port, "/", headers: ["X-Big": String(repeating: "b", count: 64_000)])
        #expect(huge.status >= 400 && huge.status < 500, "\(huge.status)")
    }

    /// A form's post is `application/x-www-form-urlencoded` UTF-8, as every
    /// browser (and the page's script) sends it; anything else is refused,
    /// and nothing is written: `text/plain` was read as a form and saved, a
    /// multipart body was told its CSRF token was missing, and bytes that
    /// are not UTF-8 (or a `%` without two hex digits) were saved as U+FFFD
    /// or as the text as sent.
    @Test func aPostIsAFormsEncodingOrRefused() throws {
        let db = try DemoDatabase()
        let dump = try db.dump()
        let server = try ServeRun(db, [])
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/signup/1")
        let token = PageVisitor.formMembers(page.text).first { $0.0 == "_csrf" }?.1 ?? ""
        var headers = ["Cookie": browser.cookies.map { "\($0)=\($1)" }.joined(separator: "; ")]
        for (type, status) in [("text/plain", 415), ("multipart/form-data; boundary=x", 415), ("", 415)] {
            headers["Content-Type"] = type.isEmpty ? nil : type
            let reply = try HTTPClient.request("POST", port: server.port, "/forms/signup/1", headers: headers,
                                               body: Data("_csrf=\(token)&firstName=Mallory".utf8))
            #expect(reply.status == status, "\(type): \(reply)")
        }
        headers["Content-Type"] = "application/x-www-form-urlencoded; charset=UTF-8"
        for body in ["_csrf=\(token)&firstName=%E2%82", "_csrf=\(token)&firstName=%ZZ%"] {
            let reply = try HTTPClient.request("POST", port: server.port, "/forms/signup/1", headers: headers, body: Data(body.utf8))
            #expect(reply.status == 400 && reply.text.contains("not URL-encoded UTF-8"), "\(body): \(reply)")
        }
        #expect(try db.dump() == dump)
        // As a browser sends it, with a charset, the post is read.
        let saved = try HTTPClient.request("POST", port: server.port, "/forms/signup/1", headers: headers,
                                           body: Data("_csrf=\(token)&firstName=Mall%C3%B6ry".utf8))
        #expect(saved.status == 303, "\(saved)")
    }

    @Test func readOnlyRefusesEveryWrite() throws {
        let db = try DemoDatabase()
        let dump = try db.dump()
        let server = try ServeRun(db, ["--read-only"])
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/signup/1")
        #expect(page.status == 200)
        #expect(!page.text.contains("<button type=\"submit\">Save</button>"))
        let token = PageVisitor.formMembers(page.text).first { $0.0 == "_csrf" }?.1 ?? ""
        #expect(try browser.post("/forms/signup/1", [("_csrf", token), ("firstName", "Mallory")]).status == 403)
        #expect(try browser.post("/forms/signup/1/delete", [("_csrf", token)]).status == 403)
        // Nor are the pages that only lead to a write offered: they showed a Delete button that then failed.
        #expect(try browser.get("/forms/signup/1/delete").status == 403)
        #expect(try browser.get("/forms/signup/new").status == 403)
        #expect(try browser.post("/forms/signup", [("_csrf", token), ("firstName", "Mallory")]).status == 403)
        #expect(try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                       headers: ["Content-Type": "application/json"], body: Data(#"{"age": 1}"#.utf8)).status == 403)
        #expect(try HTTPClient.request("DELETE", port: server.port, "/api/forms/signup/records/1").status == 403)
        #expect(try HTTPClient.request("POST", port: server.port, "/api/forms/signup/records",
                                       headers: ["Content-Type": "application/json"], body: Data(#"{}"#.utf8)).status == 403)
        #expect(try db.dump() == dump)
    }
}
