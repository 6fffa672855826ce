import FormCore

/// JSON output: an array streamed row by row (`[` is written before the first
/// row and `]` by `finish`), one object per line (NDJSON), or a single object.
struct JSONWriter: RecordWriter {
    enum Style {
        /// `[ {...}, {...} ]`, one object per line.
        case array
        /// NDJSON: one compact object per line.
        case lines
        /// One pretty-printed object (`show --format json`).
        case single
    }

    let columns: [OutputColumn]
    let sink: any TextSink
    let options: OutputOptions
    let style: Style
    private var rowCount = 0
    private var line: [UInt8] = []

    init(columns: [OutputColumn], sink: any TextSink, options: OutputOptions, style: Style) {
        self.columns = columns
        self.sink = sink
        self.options = options
        self.style = style
    }

    mutating func write(_ row: [FieldValue]) {
        // One reused buffer per row, written as bytes: no String per value.
        line.removeAll(keepingCapacity: true)
        switch style {
        case .array:
            line += (rowCount == 0 ? "[\n  " : ",\n  ").utf8
            ValueText.appendJSONObject(row, columns: columns, options: options, to: &line)
        case .lines:
            ValueText.appendJSONObject(row, columns: columns, options: options, to: &line)
            line.append(UInt8(ascii: "\n"))
        case .single:
            ValueText.appendJSONObject(row, columns: columns, options: options, pretty: true, to: &line)
            line.append(UInt8(ascii: "\n"))
        }
        sink.write(utf8: line)
        rowCount += 1
    }

    mutating func finish() {
        if style == .array { sink.write(rowCount == 0 ? "[]\n" : "\n]\n") }
        sink.flush()
    }
}
