/// A failure the command reports: a one-line message on stderr and an exit
/// code scripts can rely on.
///
/// ```swift
/// throw CLIError.notFound("no form named 'people'")
/// ```
///
/// A struct with static constructors rather than a public enum, so kinds can
/// be added without breaking callers.
public struct CLIError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case usage, validation, notFound, unavailable, storage, conflict, failure
        case interrupted(signal: Int32)
    }

    private let kind: Kind
    /// One line, without the `formstore:` prefix.
    public let message: String
    /// Further lines (one per invalid field, say), printed indented under the message.
    public let details: [String]

    private init(_ kind: Kind, _ message: String, details: [String] = []) {
        self.kind = kind
        self.message = message
        self.details = details
    }

    /// Bad arguments: printed as `Error: …` followed by the command's usage (exit 64).
    public static func usage(_ message: String) -> CLIError { CLIError(.usage, message) }
    /// Validation failed or input does not parse (exit 65).
    public static func validation(_ message: String, details: [String] = []) -> CLIError {
        CLIError(.validation, message, details: details)
    }
    /// A form, record, draft or file that does not exist (exit 66).
    public static func notFound(_ message: String) -> CLIError { CLIError(.notFound, message) }
    /// A library the command needs cannot be loaded (exit 69).
    public static func unavailable(_ message: String) -> CLIError { CLIError(.unavailable, message) }
    /// Storage failed: I/O, read-only, full, corrupt (exit 74).
    public static func storage(_ message: String) -> CLIError { CLIError(.storage, message) }
    /// A conflicting change or a busy database (exit 75).
    public static func conflict(_ message: String, details: [String] = []) -> CLIError {
        CLIError(.conflict, message, details: details)
    }
    /// Stopped by `signal` (SIGINT, SIGTERM) after undoing what it had
    /// written (exit 128 + the signal's number, as a shell reports a process
    /// the signal ended: 130 for Ctrl-C).
    public static func interrupted(signal: Int32, _ message: String) -> CLIError { CLIError(.interrupted(signal: signal), message) }
    /// Anything else (exit 1).
    public static func failure(_ message: String) -> CLIError { CLIError(.failure, message) }

    /// The same error with more lines under it.
    func adding(details more: [String]) -> CLIError {
        CLIError(kind, message, details: details + more)
    }

    public var isUsage: Bool { kind == .usage }

    public var exitCode: ExitCode {
        switch kind {
        case .usage: return .usage
        case .validation: return .validationFailed
        case .notFound: return .notFound
        case .unavailable: return .unavailable
        case .storage: return .storage
        case .conflict: return .tryAgain
        case .failure: return .failure
        case .interrupted(let signal): return ExitCode(rawValue: 128 + signal)
        }
    }

    public var description: String { message }
}
