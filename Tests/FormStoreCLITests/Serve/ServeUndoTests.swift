import FormStoreTestSupport
import Foundation
import Testing

/// Undo and Redo of a save on a record's page, without script: plain posts
/// with the page's CSRF token, through the session that saved.
@Suite(.serialized) struct ServeUndoTests {
    /// The Undo or Redo form of a page, as a page of its own for `submit`.
    static func stepForm(_ page: HTTPReply, _ action: String) throws -> HTTPReply {
        let start = try #require(page.text.range(of: "<form method=\"post\" action=\"\(action)\""), "no \(action) form in \(page)")
        return HTTPReply(status: 200, headers: [:], body: Data(page.text[start.lowerBound...].utf8))
    }

    @Test func aSaveIsUndoneAndRedoneAndBothAreInTheHistory() throws {
        let db = try DemoDatabase()
        #expect(try db.run(["init"]).code == 0)  // history is kept in the database after `init`
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let saved = try browser.submit(try browser.get("/forms/register/1"), ["phone": "555 222 3333"])
        #expect(saved.status == 303, "\(saved)")
        let after = try browser.get(saved.headers["location"]!)
        #expect(after.text.contains("<div class=\"notice saved\" role=\"status\">Saved: Phone.</div>"))
        let undone = try browser.submit(try Self.stepForm(after, "/forms/register/1/undo"), [:])
        #expect(undone.status == 303, "\(undone)")
        #expect(undone.headers["location"] == "/forms/register/1?undone=phone")
        #expect(try db.query("SELECT phone FROM registers WHERE id = 1") == "5551234567\n")
        let afterUndo = try browser.get(undone.headers["location"]!)
        #expect(afterUndo.text.contains("Undone: Phone."))
        #expect(afterUndo.text.contains("value=\"(555) 123-4567\""))
        let redone = try browser.submit(try Self.stepForm(afterUndo, "/forms/register/1/redo"), [:])
        #expect(redone.headers["location"] == "/forms/register/1?redone=phone", "\(redone)")
        #expect(try db.query("SELECT phone FROM registers WHERE id = 1") == "5552223333\n")
        #expect(try browser.get(redone.headers["location"]!).text.contains("action=\"/forms/register/1/undo\""), "Undo is offered again")
        let history = try browser.get("/forms/register/1/history")
#expect(history.text.components(separatedBy: "<th scope=\"row\">Phone</th>").count - 1 == 3,
                "the save, its undo and its redo, each in the history: \(history)")
    }

    @Test func anUndoOverAnotherSaveIsAConflictAndSavesNothing() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port), other = PageVisitor(port: server.port)
        let saved = try browser.submit(try browser.get("/forms/register/1"), ["phone": "555 222 3333"])
        let after = try browser.get(saved.headers["location"]!)
        #expect(try other.submit(try other.get("/forms/register/1"), ["phone": "555 999 0000"]).status == 303)
        let refused = try browser.submit(try Self.stepForm(after, "/forms/register/1/undo"), [:])
        #expect(refused.status == 409, "\(refused)")
        #expect(refused.text.contains("Could not undo: someone else changed Phone (now “(555) 999-0000”) since. Nothing was saved."))
        #expect(try db.query("SELECT phone FROM registers WHERE id = 1") == "5559990000\n")
    }

    @Test func undoNeedsTheTokenAndASaveOfThisBrowser() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port), other = PageVisitor(port: server.port)
        let saved = try browser.submit(try browser.get("/forms/register/1"), ["phone": "555 222 3333"])
        #expect(saved.status == 303)
        #expect(try browser.post("/forms/register/1/undo", []).status == 403)
        let page = try other.get("/forms/register/1")
        #expect(!page.text.contains("/undo\""))
        let token = PageVisitor.formMembers(page.text).first { $0.0 == "_csrf" }!.1
        let nothing = try other.post("/forms/register/1/undo", [("_csrf", token)])
        #expect(nothing.status == 404, "\(nothing)")
        #expect(nothing.text.contains("There is no save of yours to undo here"))
        #expect(try db.query("SELECT phone FROM registers WHERE id = 1") == "5552223333\n")
    }
}

/// The JSON API's undo and redo of a caller's last PATCH.
@Suite(.serialized) struct ServeAPIUndoTests {
    static let json = ["Content-Type": "application/json"]

    static func post(_ server: ServeRun, _ path: String, headers: [String: String] = json) throws -> HTTPReply {
        try HTTPClient.request("POST", port: server.port, path, headers: headers, body: Data("{}".utf8))
    }

    @Test func aPatchIsUndoneAndRedone() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        #expect(try Self.post(server, "/api/forms/signup/records/1/undo").status == 404, "nothing to undo yet")
        let patched = try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1", headers: Self.json,
                                             body: Data(#"{"age": 35}"#.utf8))
        #expect(patched.status == 200, "\(patched)")
        #expect(try Self.post(server, "/api/forms/signup/records/1/undo", headers: [:]).status == 415, "a write needs a JSON body")
        let garbage = try HTTPClient.request("POST", port: server.port, "/api/forms/signup/records/1/undo", headers: Self.json,
                                             body: Data("garbage".utf8))
        #expect(garbage.status == 400, "\(garbage)")
        #expect(try db.query("SELECT age FROM signups WHERE id = 1") == "35\n", "a body that is no JSON undid nothing")
        let undone = try Self.post(server, "/api/forms/signup/records/1/undo")
        #expect(undone.status == 200, "\(undone)")
        #expect(undone.text == #"{"changed":["age"],"key":{"id":1},"outcome":"saved"}"#)
        #expect(undone.headers["etag"] != nil)
        #expect(try db.query("SELECT age FROM signups WHERE id = 1") == "34\n")
        let redone = try Self.post(server, "/api/forms/signup/records/1/redo")
        #expect(redone.status == 200, "\(redone)")
        #expect(try db.query("SELECT age FROM signups WHERE id = 1") == "35\n")
    }

    @Test func anUndoOverAnotherWritersChangeIsAConflict() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        #expect(try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1", headers: Self.json,
                                       body: Data(#"{"age": 35}"#.utf8)).status == 200)
        try db.query("UPDATE signups SET age = 50 WHERE id = 1")
        let refused = try Self.post(server, "/api/forms/signup/records/1/undo")
        #expect(refused.status == 409, "\(refused)")
        #expect((try refused.json() as? [String: Any])?["outcome"] as? String == "conflict")
        #expect(try db.query("SELECT age FROM signups WHERE id = 1") == "50\n")
    }
}
