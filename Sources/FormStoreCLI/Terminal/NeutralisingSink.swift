/// Messages for a person (stderr: errors, warnings, hints, prompts), each
/// passed through `TerminalText.neutralised` before it reaches the terminal.
/// Messages quote what the database holds (SQLite's text from a trigger, a
/// table's name, a draft's key), and no message of the command's own needs a
/// control character other than a line break, so this one place covers all
/// of them. Data on stdout is written as it is by its writer.
///
/// Not `Sendable`: one command owns its streams.
public final class NeutralisingSink: TextSink {
    private let base: any TextSink

    public init(_ base: any TextSink) { self.base = base }

    public var isTerminal: Bool { base.isTerminal }

    public func write(_ text: String) {
        base.write(TerminalText.neutralised(text, keepingLineBreaks: true))
    }

    public func write(utf8 bytes: [UInt8]) {
        write(String(decoding: bytes, as: UTF8.self))
    }

    public func flush() { base.flush() }
}

@available(*, unavailable)
extension NeutralisingSink: Sendable {}
