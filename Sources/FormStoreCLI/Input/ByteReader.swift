/// Pulls bytes from a `ByteSource` through a fixed-size buffer, counting lines.
/// The readers parse from it, so memory stays flat whatever the input size.
///
/// Not `Sendable`: one reader owns its input.
final class ByteReader {
    private let source: any ByteSource
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// The line of the next byte (1-based).
    private(set) var line = 1

    init(_ source: any ByteSource, chunkSize: Int = 64 * 1024) {
        self.source = source
        self.chunkSize = chunkSize
    }

    /// The next byte without consuming it; nil at the end.
    func peek() throws -> UInt8? {
        if position < buffer.count { return buffer[position] }
        guard try refill() else { return nil }
        return buffer[position]
    }

    /// Consumes the next byte; nil at the end.
    func next() throws -> UInt8? {
        guard let byte = try peek() else { return nil }
        position += 1
        if byte == UInt8(ascii: "\n") { line += 1 }
        return byte
    }

    /// One line's bytes without its `\n` (nor a `\r` before it); nil at the end.
    func readLine() throws -> [UInt8]? {
        var bytes: [UInt8] = []
        while true {
            if position >= buffer.count {
                guard try refill() else { return bytes.isEmpty ? nil : bytes }
            }
            if let newline = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) {
                bytes += buffer[position..<newline]
                position = newline + 1
                line += 1
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                return bytes
            }
            bytes += buffer[position...]
            position = buffer.count
        }
    }

    /// Skips a UTF-8 byte-order mark at the very start.
    func skipByteOrderMark() throws {
        guard try peek() == 0xEF else { return }
        while buffer.count - position < 3, try refillKeeping() {}
        if buffer.count - position >= 3, buffer[position..<position + 3].elementsEqual([0xEF, 0xBB, 0xBF]) {
            position += 3
        }
    }

    private func refill() throws -> Bool {
        guard !atEnd else { return false }
        let chunk = try source.read(upTo: chunkSize)
        if chunk.isEmpty { atEnd = true; return false }
        buffer = chunk
        position = 0
        return true
    }

    /// Reads more without dropping the unread bytes (for a short look-ahead).
    private func refillKeeping() throws -> Bool {
        guard !atEnd else { return false }
        let chunk = try source.read(upTo: chunkSize)
        if chunk.isEmpty { atEnd = true; return false }
        buffer = Array(buffer[position...]) + chunk
        position = 0
        return true
    }
}

@available(*, unavailable)
extension ByteReader: Sendable {}
