/// A JSON array of objects, parsed one object at a time.
final class JSONArrayReader: RecordReader {
    private let reader: ByteReader
    private var started = false
    private var finished = false
    private let childRows: Bool

    init(_ source: any ByteSource, childRows: Bool = false) {
        reader = ByteReader(source)
        self.childRows = childRows
    }

    func next() throws -> InputRecord? {
        let parser = JSONValueParser(reader: reader)
        guard !finished else { return nil }
        if !started {
            started = true
            try reader.skipByteOrderMark()
            try parser.skipWhitespace()
            guard try reader.next() == UInt8(ascii: "[") else { throw parser.error("expected a JSON array of objects") }
            try parser.skipWhitespace()
            if try reader.peek() == UInt8(ascii: "]") {
                _ = try reader.next()
                return try end(parser)
            }
        } else {
            try parser.skipWhitespace()
            switch try reader.next() {
            case UInt8(ascii: ","): break
            case UInt8(ascii: "]"): return try end(parser)
            default: throw parser.error("expected ',' or ']' after an object")
            }
        }
        try parser.skipWhitespace()
        let line = reader.line
        guard childRows else { return InputRecord(line: line, values: try parser.parseRecord()) }
        let (values, rows) = try parser.parseRecordWithRows()
        return InputRecord(line: line, values: values, rows: rows)
    }

    private func end(_ parser: JSONValueParser) throws -> InputRecord? {
        finished = true
        try parser.skipWhitespace()
        guard try reader.peek() == nil else { throw parser.error("unexpected text after the array") }
        return nil
    }
}

@available(*, unavailable)
extension JSONArrayReader: Sendable {}
