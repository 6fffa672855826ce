import FormCore
import Foundation

/// CSV (RFC 4180): a header row of field keys, CRLF line ends, and a field
/// quoted when it holds a comma, a quote or a line break. An empty text is
/// written `""` and NULL as nothing, so the reader can tell them apart.
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
            if shown == .null { return "" }
            return CSVWriter.quoted(ValueText.text(shown, kind: column.kind, blobsBySize: false))
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
        sink.write(columns.map { CSVWriter.quoted($0.key) }.joined(separator: ",") + "\r\n")
    }

    /// The cell as RFC 4180 writes it.
    static func quoted(_ text: String) -> String {
        let needsQuotes = text.isEmpty || text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
