import FormCore
import Foundation

/// One response, one line of JSON on stdout: `{"status": 200, "body": …}`.
struct Response: Error {
    var status: Int
    var body: Data

    init(status: Int, _ body: some Encodable) {
        self.status = status
        self.body = (try? Response.encoder.encode(body)) ?? Data("null".utf8)
    }

    /// A save FormCore refused, as the status a client expects; the body is
    /// the outcome in FormCore's own JSON shape (docs/service.md).
    init(refused outcome: SaveOutcome) {
        switch outcome {
        case .invalid: self.init(status: 422, outcome)
        case .conflict: self.init(status: 409, outcome)
        case .notFound: self.init(status: 404, outcome)
        case .saved, .unchanged: self.init(status: 200, outcome)
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// The response as one line.
    var line: Data { Data(#"{"status":\#(status),"body":"#.utf8) + body + Data("}\n".utf8) }
}
