import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where input bytes come from: stdin, a file, or a buffer in tests. Read in
/// chunks so that memory stays flat however long the input.
public protocol ByteSource: AnyObject {
    /// True when this is an interactive terminal.
    var isTerminal: Bool { get }
    /// Up to `count` bytes; empty at the end of the input.
    func read(upTo count: Int) throws -> [UInt8]
    /// Turns the terminal's echo off or back on (for secure input); a no-op
    /// when the source is not a terminal.
    func setEcho(_ on: Bool)
}

extension ByteSource {
    public func setEcho(_ on: Bool) {}
}

/// Reads a file descriptor: stdin, or a file opened for import.
///
/// Not `Sendable`: one command owns its input.
public final class FileDescriptorSource: ByteSource {
    private let fileDescriptor: Int32
    private let ownsDescriptor: Bool
    public let isTerminal: Bool
    /// What a failed read names: the file's path, or "input" for stdin.
    private let name: String

    public init(fileDescriptor: Int32, ownsDescriptor: Bool = false, name: String = "input") {
        self.fileDescriptor = fileDescriptor
        self.ownsDescriptor = ownsDescriptor
        self.isTerminal = isatty(fileDescriptor) == 1
        self.name = name
    }

    /// Opens a file for reading.
    /// - throws: `CLIError.notFound` when it is not there (exit 66), a storage
    ///   error when it cannot be read (permission denied: exit 74).
    public convenience init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = "cannot open '\(path)': \(String(cString: strerror(errno)))"
            throw errno == ENOENT || errno == ENOTDIR ? CLIError.notFound(reason) : CLIError.storage(reason)
        }
        self.init(fileDescriptor: fd, ownsDescriptor: true, name: "'\(path)'")
    }

    deinit {
        if ownsDescriptor { close(fileDescriptor) }
    }

    public func read(upTo count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, count) }
            if n >= 0 {
                bytes.removeSubrange(n...)
                return bytes
            }
            if errno == EINTR { continue }
            throw CLIError.storage("cannot read \(name): \(String(cString: strerror(errno)))")
        }
    }

    public func setEcho(_ on: Bool) {
        guard isTerminal else { return }
        var settings = termios()
        guard tcgetattr(fileDescriptor, &settings) == 0 else { return }
        if on {
            settings.c_lflag |= tcflag_t(ECHO)
        } else {
            settings.c_lflag &= ~tcflag_t(ECHO)
        }
        // TCSANOW, not TCSAFLUSH: a line typed ahead must not be thrown away.
        tcsetattr(fileDescriptor, TCSANOW, &settings)
    }
}

@available(*, unavailable)
extension FileDescriptorSource: Sendable {}

/// Input held in memory, handed out in small chunks (tests use tiny chunks
/// to prove the readers do not depend on where a chunk ends).
public final class BufferSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0
    private let chunkLimit: Int
    public let isTerminal: Bool

    public convenience init(_ text: String, chunkLimit: Int = .max, isTerminal: Bool = false) {
        self.init(bytes: Array(text.utf8), chunkLimit: chunkLimit, isTerminal: isTerminal)
    }

    public init(bytes: [UInt8], chunkLimit: Int = .max, isTerminal: Bool = false) {
        self.bytes = bytes
        self.chunkLimit = chunkLimit
        self.isTerminal = isTerminal
    }

    public func read(upTo count: Int) throws -> [UInt8] {
        let n = min(count, chunkLimit, bytes.count - position)
        defer { position += n }
        return Array(bytes[position..<position + n])
    }
}

@available(*, unavailable)
extension BufferSource: Sendable {}
