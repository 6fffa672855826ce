import FormStoreTestSupport
import Foundation
import Testing

/// docs/service.md's example, built with the package and run as a client
/// would drive it: JSON requests in, JSON responses out, no network.
@Suite struct ServiceExampleTests {
    struct Reply {
        var status: Int
        var body: Any
    }

    func serve(_ requests: [String], database: String) throws -> [Reply] {
        let path = try #require(builtExecutable("formstore-service-example"), "the service example is not built")
        let run = try runProcess(path, ["--db", database], stdin: requests.joined(separator: "\n") + "\n")
        #expect(run.code == 0, "\(run)")
        return try run.output.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return Reply(status: try #require(object["status"] as? Int), body: object["body"] ?? NSNull())
        }
    }

    @Test func requestBodiesGoThroughTheFormAndRecordsComeBackAsJSON() throws {
        let scratch = try TemporaryDirectory()
        let database = scratch.path + "/tickets.sqlite"
        let replies = try serve([
            #"{"method": "POST", "path": "/tickets", "body": {"title": "  Printer jam ", "status": "open", "tags": ["3rd floor"], "due": "2026-12-01"}}"#,
            #"{"method": "POST", "path": "/tickets", "body": {"title": "Jam", "status": "open", "priority": 1}}"#,
            #"{"method": "POST", "path": "/tickets", "body": {"title": "ab", "status": "open"}}"#,
            #"{"method": "PATCH", "path": "/tickets/1", "body": {"status": "closed", "due": "2026-12-02"}}"#,
            #"{"method": "PATCH", "path": "/tickets/1", "body": {"status": "urgent"}}"#,
            #"{"method": "PATCH", "path": "/tickets/9", "body": {"status": "closed"}}"#,
            #"{"method": "GET", "path": "/tickets/1"}"#,
            #"not json"#,
        ], database: database)
        #expect(replies.map(\.status) == [201, 422, 422, 200, 422, 404, 200, 400])

        let created = try #require(replies[0].body as? [String: Any])
        #expect(created["id"] as? Int == 1)
        #expect(created["title"] as? String == "Printer jam")
        #expect(created["tags"] as? [String] == ["3rd floor"])
        #expect(created["due"] as? String == "2026-12-01T00:00:00Z")

        let unknown = try #require((replies[1].body as? [String: Any])?["errors"] as? [[String: Any]])
        #expect(unknown.map { $0["field"] as? String } == ["priority"])
        #expect(unknown.map { $0["code"] as? String } == ["unknownField"])

        let invalid = try #require(replies[2].body as? [String: Any])
        #expect(invalid["outcome"] as? String == "invalid")
        #expect((invalid["errors"] as? [[String: Any]])?.map { $0["code"] as? String } == ["minLength"])

        let patched = try #require(replies[3].body as? [String: Any])
        #expect(patched["status"] as? String == "closed")
        #expect(patched["due"] as? String == "2026-12-02T00:00:00Z")

        let choice = try #require(replies[4].body as? [String: Any])
        #expect((choice["errors"] as? [[String: Any]])?.map { $0["field"] as? String } == ["status"])
        #expect((replies[5].body as? [String: Any])?["outcome"] as? String == "notFound")
        #expect((replies[6].body as? [String: Any])?["status"] as? String == "closed")

        // What the rows hold, read by another client.
        #expect(try sqlite3(database, ["SELECT id, title, status, tags FROM tickets"])
                == "1|Printer jam|closed|[\"3rd floor\"]\n")
    }

    @Test func draftsBelongToTheirUserAndAOneShotRejectionKeepsNone() throws {
        let scratch = try TemporaryDirectory()
        let database = scratch.path + "/tickets.sqlite"
        let replies = try serve([
            #"{"method": "POST", "path": "/tickets", "user": "ana", "body": {"title": "Printer jam", "status": "open"}}"#,
            // One-shot and rejected: answered, nothing kept.
            #"{"method": "PATCH", "path": "/tickets/1", "user": "bob", "body": {"title": "ab"}}"#,
            #"{"method": "GET", "path": "/drafts", "user": "bob"}"#,
            // Ana asks to keep her rejected edit: it is hers alone.
            #"{"method": "PATCH", "path": "/tickets/1", "user": "ana", "keepDraft": true, "body": {"title": "xy"}}"#,
            #"{"method": "GET", "path": "/drafts", "user": "ana"}"#,
            #"{"method": "GET", "path": "/drafts", "user": "bob"}"#,
            // Bob's save is not offered Ana's draft and leaves it alone.
            #"{"method": "PATCH", "path": "/tickets/1", "user": "bob", "keepDraft": true, "body": {"status": "closed"}}"#,
            #"{"method": "GET", "path": "/drafts", "user": "ana"}"#,
            // Ana's save succeeds and supersedes her draft.
            #"{"method": "PATCH", "path": "/tickets/1", "user": "ana", "keepDraft": true, "body": {"title": "Printer jammed"}}"#,
            #"{"method": "GET", "path": "/drafts", "user": "ana"}"#,
        ], database: database)
        #expect(replies.map(\.status) == [201, 422, 200, 422, 200, 200, 200, 200, 200, 200])

        func drafts(_ reply: Reply) -> [[String: Any]] { reply.body as? [[String: Any]] ?? [[:]] }
        #expect(drafts(replies[2]).isEmpty)
        #expect(drafts(replies[4]).map { $0["id"] as? Int } == [1])
        #expect(drafts(replies[4]).map { $0["fields"] as? [String] } == [["title"]])
        #expect(drafts(replies[5]).isEmpty)
        #expect(drafts(replies[7]).count == 1)
        #expect(drafts(replies[9]).isEmpty)

        #expect(try sqlite3(database, ["SELECT title, status FROM tickets"]) == "Printer jammed|closed\n")
    }
}
