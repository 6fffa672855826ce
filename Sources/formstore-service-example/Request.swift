import Foundation

/// One request, one line of JSON on stdin:
/// `{"method": "PATCH", "path": "/tickets/7", "user": "ana", "body": {"status": "closed"}}`.
struct Request {
    var method: String
    var path: String
    /// Who asks (an HTTP server would take it from the authenticated session):
    /// the owner of any draft the request keeps, and the only one offered it.
    var user: String?
    /// `"keepDraft": true` asks that a rejected save be kept as the user's
    /// draft (a browser form the person comes back to); without it a request
    /// is one-shot and a rejected save leaves nothing behind.
    var keepsDraft: Bool
    /// The body as it arrived, handed to the JSON door untouched.
    var body: Data

    init(line: Data) throws {
        guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any],
              let method = object["method"] as? String, let path = object["path"] as? String else {
            throw Response(status: 400, ["error": "a request is {\"method\", \"path\", \"body\"}"])
        }
        self.method = method
        self.path = path
        user = object["user"] as? String
        keepsDraft = object["keepDraft"] as? Bool ?? false
        body = try object["body"].map { try JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]) }
            ?? Data("{}".utf8)
    }

    /// The record id of `/tickets/ID`, `nil` for `/tickets`.
    var recordID: Int64? {
        let parts = path.split(separator: "/")
        return parts.count == 2 && parts[0] == "tickets" ? Int64(parts[1]) : nil
    }

    /// The collection the path names: `tickets` or `drafts`.
    var collection: String? { path.split(separator: "/").first.map(String.init) }
}
