import FormCore

/// NDJSON: one JSON object per line; blank lines are skipped. Each line is
/// parsed where it lies in the read buffer (`JSONReader`), never copied out.
final class NDJSONReader: RecordReader {
    private let source: any ByteSource
    private let childRows: Bool
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// The number of the last line read.
    private var line = 0

    init(_ source: any ByteSource, childRows: Bool = false) {
        self.source = source
        self.childRows = childRows
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
            let node: JSONNode
            do { node = try reader.value() } catch { throw InputError(error) }
            reader.skipSpace()
            guard reader.isAtEnd else {
                throw InputError(line: line, message: "unexpected text after the object (one object per line)")
            }
            let (values, rows) = try JSONRecord.record(node, line: line, childRows: childRows)
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
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
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
}

@available(*, unavailable)
extension NDJSONReader: Sendable {}
