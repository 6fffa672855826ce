/// NDJSON: one JSON object per line; blank lines are skipped.
final class NDJSONReader: RecordReader {
    private let reader: ByteReader
    private let childRows: Bool

    init(_ source: any ByteSource, childRows: Bool = false) {
        reader = ByteReader(source)
        self.childRows = childRows
    }

    func next() throws -> InputRecord? {
        while true {
            let lineNumber = reader.line
            guard let bytes = try reader.readLine() else { return nil }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let lineReader = ByteReader(BufferSource(bytes: bytes))
            let parser = JSONValueParser(reader: lineReader)
            do {
                if lineNumber == 1 { try lineReader.skipByteOrderMark() }
                let (values, rows) = childRows ? try parser.parseRecordWithRows() : (try parser.parseRecord(), [:])
                try parser.skipWhitespace()
                guard try lineReader.peek() == nil else {
                    throw InputError(line: 1, message: "unexpected text after the object (one object per line)")
                }
                return InputRecord(line: lineNumber, values: values, rows: rows)
            } catch let error as InputError {
                throw InputError(line: lineNumber, message: error.message)
            }
        }
    }
}

@available(*, unavailable)
extension NDJSONReader: Sendable {}
