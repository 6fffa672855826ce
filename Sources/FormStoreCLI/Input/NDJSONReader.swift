import FormCore
import Glibc

/// NDJSON: one JSON object per line; blank lines are skipped. Each line is
/// parsed where it lies in the read buffer (`JSONReader`), never copied out.
final class NDJSONReader: RecordReader {
    private let source: any ByteSource
    /// The groups whose rows a record may hold (`JSONRecord.record`).
    private let groups: Set<String>
    private var names: ExpectedNames?
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// The number of the last line read.
    private var line = 0

    init(_ source: any ByteSource, groups: Set<String> = []) {
        self.source = source
        self.groups = groups
    }

    func expect(names: [String]) {
        self.names = ExpectedNames(names)
    }

    func next() throws -> InputRecord? {
        while let (start, newline) = try nextLine() {
            line += 1
            let end = newline > start && buffer[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
            var reader = JSONRecord.reader(buffer, from: start, to: end, at: JSONReader.Position(line: line, column: 1))
            if line == 1 { reader.skipByteOrderMark() }
            reader.skipSpace()
            guard let first = reader.current else { continue }
            guard first == UInt8(ascii: "{") else { throw InputError(line: line, message: "expected a JSON object") }
            let members: JSONRecord.Members
            do { members = try JSONRecord.read(&reader, names: names) } catch { throw InputError(error) }
            reader.skipSpace()
            guard reader.isAtEnd else {
                throw InputError(line: line, message: "unexpected text after the object (one object per line)")
            }
            let (values, rows) = try JSONRecord.record(members, line: line, groups: groups)
            return InputRecord(line: line, values: values, rows: rows)
        }
        return nil
    }

    /// The next line's bytes in `buffer` (from its start to its `\n`, or to
    /// the end of the input); nil at the end. Reads more as needed, keeping
    /// only the unread part of the buffer.
    private func nextLine() throws -> (start: Int, end: Int)? {
        var searched = position
        while true {
            if let newline = Self.newline(in: buffer, from: searched) {
                defer { position = newline + 1 }
                return (position, newline)
            }
            if atEnd {
                guard position < buffer.count else { return nil }
                defer { position = buffer.count }
                return (position, buffer.count)
            }
            if position > 0 {
                buffer.removeSubrange(0..<position)
                position = 0
            }
            searched = buffer.count
            let chunk = try source.read(upTo: max(64 * 1024, buffer.count))
            if chunk.isEmpty { atEnd = true } else { buffer += chunk }
        }
    }

    /// The offset of the first `\n` in `bytes` from `start`, found by `memchr`
    /// (`firstIndex(of:)` went byte by byte).
    private static func newline(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard start < buffer.count, let base = buffer.baseAddress,
                  let found = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }
}

@available(*, unavailable)
extension NDJSONReader: Sendable {}
