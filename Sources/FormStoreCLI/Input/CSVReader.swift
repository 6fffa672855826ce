import FormCore

/// CSV (RFC 4180) with a header row naming the fields. Fields may be quoted,
/// with `""` for a quote and line breaks inside; records end in LF or CRLF.
/// A quoted field is text (`""` an empty text); an unquoted one is read by
/// `CSVCell`: empty is NULL, `\x…` a BLOB, a number in its shortest form a
/// number, anything else text, for the form's transformers to parse.
final class CSVReader: RecordReader {
    private let reader: ByteReader
    private let delimiter: UInt8
    private var header: [String]?
    /// The names the header's are matched to (`expect(names:)`).
    private var expected: ExpectedNames?

    /// - parameter delimiter: the byte between fields (`,`; `\t` for TSV, `;`).
    init(_ source: any ByteSource, delimiter: UInt8 = UInt8(ascii: ",")) {
        reader = ByteReader(source)
        self.delimiter = delimiter
    }

    var declaredColumns: [String]? { header }

    func expect(names: [String]) { expected = ExpectedNames(names) }

    func next() throws -> InputRecord? {
        if header == nil {
            try reader.skipByteOrderMark()
            guard let (_, cells) = try readRow() else { return nil }
            // A name is the expected one it matches, exactly or ignoring case (`ID` is `id`).
            var names: [String] = []
            // A set, not a scan of the names so far: a header of 80 000 columns took seconds.
            var seen: Set<String> = []
            for name in cells.map(\.text) {
                guard !name.isEmpty else { throw InputError(line: 1, message: "empty column name in the header") }
                let matched = expected.flatMap { expected in expected.position(of: name).map { expected.names[$0] } }
                guard seen.insert(matched ?? name).inserted else {
                    throw InputError(line: 1, message: "duplicate column '\(name)' in the header")
                }
                names.append(matched ?? name)
            }
            header = names
        }
        let header = header!
        while true {
            guard let (line, cells) = try readRow() else { return nil }
            if cells.count == 1 && cells[0] == Cell(text: "", quoted: false) && header.count > 1 { continue }  // a blank line
            guard cells.count == header.count else {
                throw InputError(line: line, message: "expected \(header.count) fields, found \(cells.count)")
            }
            // Every row is laid out by the header: its names are not copied per row.
            var values = InputValues(names: header)
            for (position, cell) in cells.enumerated() {
                values[at: position] = cell.quoted ? .text(cell.text) : CSVCell.unquoted(cell.text)
            }
            return InputRecord(line: line, values: values)
        }
    }

    /// One field as written: its text, and whether it was quoted.
    private struct Cell: Equatable {
        var text: String
        var quoted: Bool
    }

    /// One record's fields, and the line it starts on.
    private func readRow() throws -> (Int, [Cell])? {
        let startLine = reader.line
        guard try reader.peek() != nil else { return nil }
        var cells: [Cell] = []
        var field: [UInt8] = []
        var quoted = false
        func endField() throws {
            guard let text = String(validating: field, as: UTF8.self) else {
                throw InputError(line: startLine, message: "invalid UTF-8")
            }
            cells.append(Cell(text: text, quoted: quoted))
            field = []
            quoted = false
        }
        while true {
            guard let byte = try reader.next() else {
                try endField()
                return (startLine, cells)
            }
            switch byte {
            case UInt8(ascii: "\"") where field.isEmpty && !quoted:
                quoted = true
                try readQuoted(into: &field, startLine: startLine)
                // After the closing quote: a separator or the end of the record.
                switch try reader.peek() {
                case nil, delimiter, UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
                default: throw InputError(line: reader.line, message: "unexpected character after a closing quote")
                }
            case delimiter:
                try endField()
            case UInt8(ascii: "\r") where try reader.peek() == UInt8(ascii: "\n"):
                continue
            case UInt8(ascii: "\n"):
                try endField()
                return (startLine, cells)
            default:
                field.append(byte)
            }
        }
    }

    private func readQuoted(into field: inout [UInt8], startLine: Int) throws {
        while true {
            guard let byte = try reader.next() else {
                throw InputError(line: startLine, message: "unterminated quoted field")
            }
            if byte == UInt8(ascii: "\"") {
                if try reader.peek() == UInt8(ascii: "\"") {
                    _ = try reader.next()
                    field.append(byte)
                } else {
                    return
                }
            } else {
                field.append(byte)
            }
        }
    }
}

@available(*, unavailable)
extension CSVReader: Sendable {}
