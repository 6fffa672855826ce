import FormCore

/// Writes records one row at a time, so that memory stays flat however many
/// rows a `list` or `export` streams. Each row holds one value per column.
protocol RecordWriter {
    mutating func write(_ row: [FieldValue])
    /// Ends the output (closes a JSON array, prints a table that was still sampling).
    mutating func finish()
}

extension RecordWriter {
    /// Writes every row and finishes. (Streams call `write` row by row; an
    /// array, not any sequence, since a generic loop here looked the sequence's
    /// types up at run time on every command's first row, docs/binary.md.)
    mutating func writeAll(_ rows: [[FieldValue]]) {
        for row in rows { write(row) }
        finish()
    }
}

/// The formats records can be written in.
enum OutputFormat: String, Sendable, CaseIterable {
    case table, json, ndjson, csv, text

    /// A writer of this format to `sink`.
    func writer(columns: [OutputColumn], to sink: any TextSink, options: OutputOptions) -> any RecordWriter {
        switch self {
        case .table: return TableWriter(columns: columns, sink: sink, options: options)
        case .json: return JSONWriter(columns: columns, sink: sink, options: options, style: .array)
        case .ndjson: return JSONWriter(columns: columns, sink: sink, options: options, style: .lines)
        case .csv: return CSVWriter(columns: columns, sink: sink, options: options)
        case .text: return TextRecordWriter(columns: columns, sink: sink, options: options)
        }
    }
}
