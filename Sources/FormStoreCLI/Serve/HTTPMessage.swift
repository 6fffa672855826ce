import FormBasics
import FoundationEssentials

/// One request as the server adapter hands it over: the body read whole
/// (within the size limit), header names lower-cased.
struct HTTPRequest: Sendable {
    var method: String
    /// The path without its query, as sent (percent-encoded): see `segments`.
    var path: String
    /// Query members in order, decoded.
    var query: [(name: String, value: String)]
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The path's segments as sent, still percent-encoded: `new` here is the
    /// new-record page, `%6Eew` a record whose key is "new".
    var rawSegments: [String] { path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) }

    /// The path's segments, each decoded on its own, so `a%2Fb` is one segment
    /// `a/b`; `\.` and `\..` are `.` and `..` (`WebApp.pathSegment`).
    var segments: [String] {
        rawSegments.map { raw in
            let text = Self.decoded(raw)
            return text == "\\." || text == "\\.." ? String(text.dropFirst()) : text
        }
    }

    /// Percent-decoded text; text that is not valid percent-encoding is kept as it is.
    static func decoded(_ text: String) -> String { text.percentDecoded() ?? text }

    func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }
    func queryValues(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }
}

/// A response: bytes, or a stream of events that a thread of the server writes as they come.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: Data = Data()
    /// Server-sent events: called on the connection's own thread until it returns `nil`.
    var stream: (@Sendable () -> Data?)? = nil

    init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    static func html(_ status: Int = 200, _ text: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")] + headers, body: Data(text.utf8))
    }

    static func json(_ status: Int, _ data: Data, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: data)
    }

    static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data((text + "\n").utf8))
    }

    /// After a form's post: the browser asks for `location` (post/redirect/get).
    static func redirect(_ location: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: 303, headers: [("Location", location)] + headers)
    }
}
