import FormCore

/// CSV (RFC 4180) with a header row naming the fields. Fields may be quoted,
/// with `""` for a quote and line breaks inside; records end in LF or CRLF.
/// An unquoted empty field is NULL, a quoted one (`""`) an empty text;
/// every other value is text, for the form's transformers to parse.
final class CSVReader: RecordReader {
    private let reader: ByteReader
    private var header: [String]?

    init(_ source: any ByteSource) { reader = ByteReader(source) }

    var declaredColumns: [String]? { header }

    func next() throws -> InputRecord? {
        if header == nil {
            try reader.skipByteOrderMark()
            guard let (_, names) = try readRow() else { return nil }
            var seen = Set<String>()
            for name in names {
                guard let name = name, !name.isEmpty else { throw InputError(line: 1, message: "empty column name in the header") }
                guard seen.insert(name).inserted else { throw InputError(line: 1, message: "duplicate column '\(name)' in the header") }
            }
            header = names.map { $0 ?? "" }
        }
        let header = header!
        while true {
            guard let (line, cells) = try readRow() else { return nil }
            if cells.count == 1 && cells[0] == nil && header.count > 1 { continue }  // a blank line
            guard cells.count == header.count else {
                throw InputError(line: line, message: "expected \(header.count) fields, found \(cells.count)")
            }
            var values: [String: FieldValue] = [:]
            for (name, cell) in zip(header, cells) { values[name] = cell.map(FieldValue.text) ?? .null }
            return InputRecord(line: line, values: values)
        }
    }

    /// One record's fields (nil for an unquoted empty field), and the line it starts on.
    private func readRow() throws -> (Int, [String?])? {
        let startLine = reader.line
        guard try reader.peek() != nil else { return nil }
        var cells: [String?] = []
        var field: [UInt8] = []
        var quoted = false
        func endField() throws {
            guard let text = String(validating: field, as: UTF8.self) else {
                throw InputError(line: reader.line, message: "invalid UTF-8")
            }
            cells.append(quoted || !field.isEmpty ? text : nil)
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
                case nil, UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
                default: throw InputError(line: reader.line, message: "unexpected character after a closing quote")
                }
            case UInt8(ascii: ","):
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
