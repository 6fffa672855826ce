import Glibc
/// Where answers to prompts come from, one line at a time.
protocol LineSource: AnyObject {
    /// The next line without its line break; nil at the end of the input.
    /// With `echo` false on a terminal, what is typed is not shown.
    func readLine(echo: Bool) -> String?
}

/// Lines from a byte source: stdin, a terminal or a pipe.
///
/// Not `Sendable`: one prompter owns its input.
final class ByteSourceLines: LineSource {
    private let source: any ByteSource
    private let reader: ByteReader
    /// Where the line break goes that the screen would not show otherwise: typed
    /// with echo off, or read from a pipe (so each prompt ends its own line).
    private let echoSink: (any TextSink)?

    init(_ source: any ByteSource, echoSink: (any TextSink)? = nil) {
        self.source = source
        // Small chunks: a terminal delivers a line per read anyway.
        self.reader = ByteReader(source, chunkSize: 4096)
        self.echoSink = echoSink
    }

    func readLine(echo: Bool) -> String? {
        let hide = !echo && source.isTerminal
        if hide { source.setEcho(false) }
        defer {
            if hide { source.setEcho(true) }
            if hide || !source.isTerminal { echoSink?.write("\n") }
        }
        let read = try? reader.readLine()
        // A signal's handler is taking the half-typed line (`TypedLine.take`): what came is that, no
        // answer (and nothing, no end of input). Handed over, this thread waits for the handler, which ends the process.
        if source.isTerminal && TypedLine.isTaking {
            if let read { TypedLine.handOver(read) }
            while true { pause() }
        }
        guard let bytes = read else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@available(*, unavailable)
extension ByteSourceLines: Sendable {}

/// Answers given in advance, for tests.
final class ScriptedLines: LineSource {
    private var lines: [String]
    /// Whether each read asked for echo, in order.
    private(set) var echoRequests: [Bool] = []

    init(_ lines: [String]) { self.lines = lines }

    func readLine(echo: Bool) -> String? {
        echoRequests.append(echo)
        return lines.isEmpty ? nil : lines.removeFirst()
    }
}

@available(*, unavailable)
extension ScriptedLines: Sendable {}
