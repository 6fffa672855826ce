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

    init(columns: [OutputColumn], sink: any TextSink, options: OutputOptions, style: Style) {
        self.columns = columns
        self.sink = sink
        self.options = options
        self.style = style
    }

    mutating func write(_ row: [FieldValue]) {
        switch style {
        case .array:
            sink.write((rowCount == 0 ? "[\n  " : ",\n  ") + ValueText.jsonObject(row, columns: columns, options: options))
        case .lines:
            sink.write(ValueText.jsonObject(row, columns: columns, options: options) + "\n")
        case .single:
            sink.write(ValueText.jsonObject(row, columns: columns, options: options, pretty: true) + "\n")
        }
        rowCount += 1
    }

    mutating func finish() {
        if style == .array { sink.write(rowCount == 0 ? "[]\n" : "\n]\n") }
        sink.flush()
    }
}
