import Foundation

/// One request, one line of JSON on stdin:
/// `{"method": "PATCH", "path": "/tickets/7", "body": {"status": "closed"}}`.
struct Request {
    var method: String
    var path: String
    /// The body as it arrived, handed to the JSON door untouched.
    var body: Data

    init(line: Data) throws {
        guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any],
              let method = object["method"] as? String, let path = object["path"] as? String else {
            throw Response(status: 400, ["error": "a request is {\"method\", \"path\", \"body\"}"])
        }
        self.method = method
        self.path = path
        body = try object["body"].map { try JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]) }
            ?? Data("{}".utf8)
    }

    /// The record id of `/tickets/ID`, `nil` for `/tickets`.
    var recordID: Int64? {
        let parts = path.split(separator: "/")
        return parts.count == 2 ? Int64(parts[1]) : nil
    }
}
