/// The status the command exits with. Scripts rely on these numbers; they
/// follow `sysexits.h` where one fits and are listed in `formstore --help`.
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: the command did what was asked.
    public static let success = ExitCode(rawValue: 0)
    /// 1: anything not covered below.
    public static let failure = ExitCode(rawValue: 1)
    /// 64 (EX_USAGE): bad arguments or options.
    public static let usage = ExitCode(rawValue: 64)
    /// 65 (EX_DATAERR): validation failed, or input that does not parse.
    public static let validationFailed = ExitCode(rawValue: 65)
    /// 66 (EX_NOINPUT): the form, record, draft or file does not exist.
    public static let notFound = ExitCode(rawValue: 66)
    /// 69 (EX_UNAVAILABLE): a library the command needs (libpq, libmicrohttpd) is not installed.
    public static let unavailable = ExitCode(rawValue: 69)
    /// 74 (EX_IOERR): storage error: I/O, read-only, disk full, corrupt database.
    public static let storage = ExitCode(rawValue: 74)
    /// 75 (EX_TEMPFAIL): a conflicting change or a busy database; try again.
    public static let tryAgain = ExitCode(rawValue: 75)

    /// Every code with the one-line meaning shown in the top-level help.
    static let documented: [(code: ExitCode, meaning: String)] = [
        (.success, "success"),
        (.failure, "anything else"),
        (.usage, "usage error: bad arguments or options"),
        (.validationFailed, "validation failed, or input that does not parse"),
        (.notFound, "form, record, draft or file not found"),
        (.unavailable, "a library the command needs is not installed (libpq5, libmicrohttpd12)"),
        (.storage, "storage error: I/O, read-only, disk full, corrupt database"),
        (.tryAgain, "conflicting change or database busy: try again"),
        (ExitCode(rawValue: 130), "interrupted (Ctrl-C; 143 for SIGTERM): an import undone, nothing written"),
    ]

    public var description: String { String(rawValue) }
}
