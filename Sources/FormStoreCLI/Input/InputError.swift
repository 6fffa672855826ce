/// Input that does not parse, at a line of the file (1-based).
struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    var line: Int
    var message: String

    var description: String { "line \(line): \(message)" }
}
