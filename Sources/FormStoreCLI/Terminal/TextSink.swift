import FoundationEssentials
import Glibc

/// Where text goes: the command's stdout or stderr, or a buffer in tests.
public protocol TextSink: AnyObject {
    /// True when this is an interactive terminal (colour and prompts depend on it).
    var isTerminal: Bool { get }
    func write(_ text: String)
    /// Writes UTF-8 text already encoded (a row a writer built as bytes).
    func write(utf8 bytes: [UInt8])
    /// Pushes out anything buffered.
    func flush()
}

extension TextSink {
    public func write(utf8 bytes: [UInt8]) {
        write(String(decoding: bytes, as: UTF8.self))
    }
}

/// Writes to a file descriptor through a buffer, so a row-by-row writer does
/// not make one system call per row.
///
/// Not `Sendable`: one command owns its output.
public final class FileDescriptorSink: TextSink {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private let bufferLimit: Int
    public let isTerminal: Bool
    /// Set by the first failed write (a closed pipe); later output is dropped.
    public private(set) var writeError: (any Error)?

    public init(fileDescriptor: Int32, bufferLimit: Int = 64 * 1024) {
        self.fileDescriptor = fileDescriptor
        self.bufferLimit = bufferLimit
        self.isTerminal = isatty(fileDescriptor) == 1
        buffer.reserveCapacity(bufferLimit)
    }

    deinit { flush() }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        // A terminal sees each piece at once: prompts must appear before the read.
        if isTerminal || buffer.count >= bufferLimit { flush() }
    }

    public func write(utf8 bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if isTerminal || buffer.count >= bufferLimit { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard writeError == nil else { return }
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    writeError = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                    return
                }
                offset += written
            }
        }
    }
}

@available(*, unavailable)
extension FileDescriptorSink: Sendable {}

/// Collects what is written, for tests and for building text in memory.
public final class BufferSink: TextSink {
    public private(set) var text = ""
    public let isTerminal: Bool

    public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    public func write(_ text: String) { self.text += text }
    public func flush() {}
}

@available(*, unavailable)
extension BufferSink: Sendable {}
