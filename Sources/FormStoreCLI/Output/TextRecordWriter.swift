import FormCore
import FoundationEssentials

/// A record as `label: value` lines, labels aligned; continuation lines of a
/// multi-line value are indented under it. Records are separated by a blank line.
struct TextRecordWriter: RecordWriter {
    let columns: [OutputColumn]
    let sink: any TextSink
    let options: OutputOptions
    private var rowCount = 0

    init(columns: [OutputColumn], sink: any TextSink, options: OutputOptions) {
        self.columns = columns
        self.sink = sink
        self.options = options
    }

    mutating func write(_ row: [FieldValue]) {
        let labelWidth = columns.map { DisplayWidth.of(TerminalText.neutralised($0.label)) + 1 }.max() ?? 0
        var out = rowCount > 0 ? "\n" : ""
        for (column, value) in zip(columns, row) {
            let shown = ValueText.masked(value, column: column, options: options)
            let text = column.displayText(shown)
            let label = DisplayWidth.padded(TerminalText.neutralised(column.label) + ":", to: labelWidth)
            let styledLabel = TextStyle.bold.apply(label, enabled: options.usesColor)
            let indent = "\n" + String(repeating: " ", count: labelWidth + 1)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { TerminalText.neutralised(String($0)) }
            out += (styledLabel + " " + lines.joined(separator: indent))
                .replacing(#/\s+$/#, with: "") + "\n"
        }
        sink.write(out)
        rowCount += 1
    }

    mutating func finish() { sink.flush() }
}
