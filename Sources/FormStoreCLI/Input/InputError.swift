import FormCore

/// Input that does not parse, at a line of the file (1-based), and the
/// column where the reader can tell it (JSON's syntax errors).
struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    var line: Int
    var column: Int? = nil
    var message: String

    /// A JSON syntax error, at its line and column.
    init(_ error: JSONSyntaxError) {
        self.init(line: error.line, column: error.column, message: error.message)
    }

    init(line: Int, column: Int? = nil, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    var description: String {
        column.map { "line \(line), column \($0): \(message)" } ?? "line \(line): \(message)"
    }
}
