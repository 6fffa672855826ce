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
        let cells = zip(columns, row).map { column, value -> String in
            let shown = ValueText.masked(value, column: column, options: options)
            switch shown {
            case .null: return ""
            case .data(let data): return CSVCell.hexPrefix + data.map { CSVWriter.hexByte($0) }.joined()
            case .text(let text): return CSVWriter.quotedText(protected(text))
            case .int, .double: return ValueText.text(shown, kind: column.kind, blobsBySize: false)
            default: return CSVWriter.quoted(protected(ValueText.text(shown, kind: column.kind, blobsBySize: false)))
            }
        }
        sink.write(cells.joined(separator: ",") + "\r\n")
    }

    mutating func finish() {
        writeHeaderOnce()
        sink.flush()
    }

    private mutating func writeHeaderOnce() {
        guard !wroteHeader else { return }
        wroteHeader = true
        sink.write(columns.map { CSVWriter.quoted(protected($0.key)) }.joined(separator: ",") + "\r\n")
    }

    /// What starts a cell a spreadsheet would run as a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` with a `'` in front when a spreadsheet would run it as a formula.
    private func protected(_ text: String) -> String {
        guard options.protectsFormulas, let first = text.unicodeScalars.first,
              CSVWriter.formulaStarts.contains(first) else { return text }
        return "'" + text
    }

    private static let hexDigits = Array("0123456789abcdef")

    private static func hexByte(_ byte: UInt8) -> String {
        String([hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
    }

    /// A text cell, quoted also where the reader would otherwise take it for
    /// a number or a BLOB.
    static func quotedText(_ text: String) -> String {
        let cell = quoted(text)
        guard cell == text, CSVCell.unquoted(text) != .text(text) else { return cell }
        return "\"" + text + "\""
    }

    /// The cell as RFC 4180 writes it.
    static func quoted(_ text: String) -> String {
        let needsQuotes = text.isEmpty || text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard needsQuotes else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
