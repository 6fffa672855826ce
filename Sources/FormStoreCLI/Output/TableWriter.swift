import FormCore

/// Aligned columns for a terminal. The widths are fixed after the first rows
/// (`OutputOptions.tableSampleSize`) so that a long listing streams: a later
/// value wider than its column runs past it. A value wider than
/// `maxColumnWidth` is cut with `…` (a number or a key never is: cut, it
/// would read as another, `10…` for `1000`), and with
/// a `lineWidth` (the terminal's) the widest columns are narrowed until a line
/// fits. Widths are display columns (CJK and emoji 2, combining marks 0).
/// Names and values pass through `TerminalText.neutralised`; BLOBs are shown by their size.
struct TableWriter: RecordWriter {
    let columns: [OutputColumn]
    let sink: any TextSink
    let options: OutputOptions
    private var sample: [[String]] = []
    private var widths: [Int]?
    /// The width past which each column's values are cut (`maxColumnWidth`,
    /// or less where the line's width narrowed the column).
    private var cutWidths: [Int] = []

    init(columns: [OutputColumn], sink: any TextSink, options: OutputOptions) {
        self.columns = columns
        self.sink = sink
        self.options = options
    }

    mutating func write(_ row: [FieldValue]) {
        let cells = zip(columns, row).map { column, value in
            TerminalText.neutralised(column.displayText(ValueText.masked(value, column: column, options: options)))
        }
        if let widths {
            sink.write(line(cells, widths: widths))
        } else {
            sample.append(cells)
            if sample.count >= options.tableSampleSize { flushSample() }
        }
    }

    mutating func finish() {
        if widths == nil { flushSample() }
        sink.flush()
    }

    private mutating func flushSample() {
        let headers = columns.map { TerminalText.neutralised($0.key) }
        var widths = headers.map(DisplayWidth.of)
        for cells in sample {
            for (i, cell) in cells.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
        }
        widths = widths.map { min($0, max(options.maxColumnWidth, 1)) }
        let natural = widths
        if let lineWidth = options.lineWidth { widths = TableWriter.narrowed(widths, toFit: lineWidth) }
        cutWidths = zip(natural, widths).map { natural, width in width < natural ? width : max(options.maxColumnWidth, 1) }
        self.widths = widths
        var header = line(headers, widths: widths, alignNumbers: false)
        if options.usesColor { header = TextStyle.bold.apply(header.dropLast(), enabled: true) + "\n" }
        sink.write(header)
        for cells in sample { sink.write(line(cells, widths: widths)) }
        sample = []
    }

    private func line(_ cells: [String], widths: [Int], alignNumbers: Bool = true) -> String {
        var parts: [String] = []
        for (i, cell) in cells.enumerated() {
            let whole = columns[i].isNumeric || columns[i].isKey
            let fitted = whole ? cell : TableWriter.fit(cell, width: cutWidths[i])
            let pad = String(repeating: " ", count: max(0, widths[i] - DisplayWidth.of(fitted)))
            let isLast = i == cells.count - 1
            if alignNumbers && columns[i].isNumeric {
                parts.append(pad + fitted)
            } else {
                parts.append(isLast ? fitted : fitted + pad)
            }
        }
        var text = parts.joined(separator: "  ")
        while text.last == " " { text.removeLast() }
        return text + "\n"
    }

    static func fit(_ text: String, width: Int) -> String {
        DisplayWidth.fit(text, width: width)
    }

    /// The widest column narrowed one at a time until the columns and the two
    /// spaces between them fit `lineWidth`; no column below 4 (`ab…`).
    static func narrowed(_ widths: [Int], toFit lineWidth: Int) -> [Int] {
        var widths = widths
        let gaps = 2 * max(widths.count - 1, 0)
        while widths.reduce(gaps, +) > lineWidth, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
              widths[widest] > 4 {
            widths[widest] -= 1
        }
        return widths
    }
}
