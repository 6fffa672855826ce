import FormCore
import FoundationEssentials

/// CSV (RFC 4180): a header row of field keys, CRLF line ends. So that a
/// value reads back as it was written (docs/fidelity.md, "Export and import"):
///
/// | value | written |
/// | --- | --- |
/// | NULL | nothing: an unquoted empty field |
/// | empty text | `""` |
/// | INTEGER, REAL | unquoted, in the shortest form that reads back the same (`42`, `0.1`, `1e-300`) |
/// | BLOB | unquoted `\x` and lower-case hex (`\x00ff`) |
/// | text | as it is; quoted when it holds a comma, a quote or a line break, or could be read as one of the above (`"42"`, `"\x00"`) |
///
/// A spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a
/// CR as a formula (`=HYPERLINK(…)`, `+1+cmd|' /C calc'!A0`), so unless
/// `OutputOptions.protectsFormulas` is off (`--raw-csv`) such a text cell,
/// header included, is written with a `'` in front. INTEGER and REAL cells
/// are numbers, not formulas, and stay as they are (`-5`). Import takes the
/// `'` as part of the text (docs/fidelity.md, "CSV").
struct CSVWriter: RecordWriter {
    let columns: [OutputColumn]
    let sink: any TextSink
    let options: OutputOptions
    private var wroteHeader = false

    init(columns: [OutputColumn], sink: any TextSink, options: OutputOptions) {
        self.columns = columns
        self.sink = sink
        self.options = options
    }

    mutating func write(_ row: [FieldValue]) {
        writeHeaderOnce()
        var line: [UInt8] = []
        for (index, (column, value)) in zip(columns, row).enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            let shown = ValueText.masked(value, column: column, options: options)
            switch shown {
            case .null: break
            case .data(let data): data.withUnsafeBytes { CSVCell.appendBlob($0, to: &line) }
            case .text(var text):
                text.withUTF8 { CSVCell.appendText($0, protectsFormulas: options.protectsFormulas, to: &line) }
            case .int(let value): ValueBytes.appendInteger(value, to: &line)
            case .double(let value): ValueBytes.appendNumber(value, to: &line)
            default:
                var text = ValueText.text(shown, kind: column.kind, blobsBySize: false)
                text.withUTF8 { CSVCell.appendPlain($0, protectsFormulas: options.protectsFormulas, to: &line) }
            }
        }
        line += "\r\n".utf8
        sink.write(utf8: line)
    }

    mutating func finish() {
        writeHeaderOnce()
        sink.flush()
    }

    private mutating func writeHeaderOnce() {
        guard !wroteHeader else { return }
        wroteHeader = true
        var line: [UInt8] = []
        for (index, column) in columns.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            var key = column.key
            key.withUTF8 { CSVCell.appendPlain($0, protectsFormulas: options.protectsFormulas, to: &line) }
        }
        line += "\r\n".utf8
        sink.write(utf8: line)
    }
}
