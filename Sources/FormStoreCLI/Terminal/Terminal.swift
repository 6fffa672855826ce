import FoundationEssentials
import Glibc

/// The command's standard streams: data goes to `output` (stdout), messages
/// and prompts to `errors` (stderr).
///
/// ```swift
/// let out = BufferSink()
/// let terminal = Terminal(input: BufferSource(""), output: out, errors: BufferSink())
/// ```
///
/// Not `Sendable`: one command owns its streams.
public struct Terminal {
    public var input: any ByteSource
    public var output: any TextSink
    public var errors: any TextSink
    /// Colour is used only on an interactive stdout and when `NO_COLOR` is unset.
    public var usesColor: Bool
    /// How many columns a line of output may take: `$COLUMNS` when set, else
    /// the width of an interactive stdout; `nil` for a pipe or a file, whose
    /// reader has no width to fit.
    public var outputWidth: Int?

    public init(input: any ByteSource, output: any TextSink, errors: any TextSink,
                environment: [String: String] = [:], outputWidth: Int? = nil) {
        self.input = input
        self.output = output
        self.errors = errors
        self.usesColor = Terminal.colorAllowed(outputIsTerminal: output.isTerminal, environment: environment)
        self.outputWidth = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? outputWidth
    }

    /// The variables a terminal reads (`COLUMNS`, `NO_COLOR`, `TERM`).
    static let variables = ["COLUMNS", "NO_COLOR", "TERM"]

    /// The process's stdin, stdout and stderr.
    public static func standard(environment: [String: String]) -> Terminal {
        let output = FileDescriptorSink(fileDescriptor: 1)
        return Terminal(input: FileDescriptorSource(fileDescriptor: 0),
                        output: output,
                        errors: NeutralisingSink(FileDescriptorSink(fileDescriptor: 2, bufferLimit: 0)),
                        environment: environment,
                        outputWidth: output.isTerminal ? windowWidth(of: 1) : nil)
    }

    /// The width of the terminal on `fileDescriptor` (`TIOCGWINSZ`), `nil` when it has none.
    static func windowWidth(of fileDescriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// https://no-color.org: an empty `NO_COLOR` counts as unset. `TERM=dumb` has no colour either.
    static func colorAllowed(outputIsTerminal: Bool, environment: [String: String]) -> Bool {
        guard outputIsTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    public func flush() {
        output.flush()
        errors.flush()
    }
}

@available(*, unavailable)
extension Terminal: Sendable {}

/// The ANSI styles the command uses (only when colour is on).
enum TextStyle: String {
    case bold = "1"

    /// `text` in this style, or as it is when `enabled` is false.
    func apply(_ text: some StringProtocol, enabled: Bool) -> String {
        enabled ? "\u{1B}[\(rawValue)m\(text)\u{1B}[0m" : String(text)
    }
}
