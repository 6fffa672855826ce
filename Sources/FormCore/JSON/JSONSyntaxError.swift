/// JSON that does not parse, at a line and column of the text (both 1-based;
/// a column counts characters, not bytes).
///
/// `message` may quote a little of the text (`unexpected character 'x'`,
/// `duplicate key 'a'`); `reason` never does, for a reader that must not
/// repeat what a stray file holds (a spec folder's, say).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String
    /// The message without any of the text it quotes.
    public let reason: String
    /// The text ended inside a value: a reader that streams may read more and try again.
    public let isTruncated: Bool

    init(line: Int, column: Int, message: String, reason: String? = nil, isTruncated: Bool = false) {
        self.line = line
        self.column = column
        self.message = message
        self.reason = reason ?? message
        self.isTruncated = isTruncated
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
