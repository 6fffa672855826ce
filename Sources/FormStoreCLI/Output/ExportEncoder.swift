import FormCore
import FormStorage
import FoundationEssentials

/// What `export` writes (JSON, NDJSON, CSV), built as bytes straight from each
/// column as stored: a SQLite row's cells are read in place
/// (`FormStore.forEachStoredCells`), so no record, dictionary or string is
/// made per row, and the bytes go out in large writes. The same cells as
/// `JSONWriter` and `CSVWriter` write for a row of values (the primitives are
/// shared: `JSONText`, `ValueBytes`, `CSVCell`), so an export reads back as
/// docs/fidelity.md says, whichever path wrote it.
///
/// Not `Sendable`: one export owns it.
struct ExportEncoder {
    enum Layout { case jsonArray, ndjson, csv }

    let layout: Layout
    private let sink: any TextSink
    private let kinds: [FieldKind?]
    private let protectsFormulas: Bool
    /// What goes before each column's value: `{"id": `, `, "name": ` (JSON); `,` (CSV).
    private let prefixes: [[UInt8]]
    private var header: [UInt8] = []
    private var buffer: [UInt8] = []
    private var rowCount = 0
    private let columnKeys: [String]
    /// Text values that were not valid UTF-8, written with U+FFFD in place of
    /// each bad sequence (JSON and CSV text carry no other bytes): how many,
    /// and the first one's row (from 1) and column.
    private(set) var repairedText: (count: Int, row: Int, column: String)?

    /// Bytes gathered before a write: large enough that the system calls
    /// cost nothing beside the encoding, small enough to keep memory flat.
    static let chunkSize = 1 << 20

    /// An encoder for `format`, or nil for one `export` does not write.
    init?(format: OutputFormat, columns: [OutputColumn], sink: any TextSink, protectsFormulas: Bool) {
        switch format {
        case .json: layout = .jsonArray
        case .ndjson: layout = .ndjson
        case .csv: layout = .csv
        case .table, .text: return nil
        }
        self.sink = sink
        self.kinds = columns.map(\.kind)
        self.columnKeys = columns.map(\.key)
        self.protectsFormulas = protectsFormulas
        buffer.reserveCapacity(Self.chunkSize + 64 * 1024)
        if layout == .csv {
            prefixes = columns.indices.map { $0 == 0 ? [] : [UInt8(ascii: ",")] }
            for (index, column) in columns.enumerated() {
                if index > 0 { header.append(UInt8(ascii: ",")) }
                var key = column.key
                key.withUTF8 { CSVCell.appendPlain($0, protectsFormulas: protectsFormulas, to: &header) }
            }
            header += "\r\n".utf8
        } else {
            prefixes = columns.enumerated().map { index, column in
                var prefix: [UInt8] = Array((index == 0 ? "{" : ", ").utf8)
                JSONText.appendQuoted(column.key, to: &prefix)
                return prefix + ": ".utf8
            }
        }
    }

    /// Starts a row: the CSV header before the first, JSON's `[` or `,`.
    mutating func beginRow() {
        switch layout {
        case .jsonArray: buffer += (rowCount == 0 ? "[\n  " : ",\n  ").utf8
        case .ndjson: break
        case .csv: if rowCount == 0 { buffer += header }
        }
        if prefixes.isEmpty && layout != .csv { buffer.append(UInt8(ascii: "{")) }
    }

    /// Appends the cell of column `index` (columns in order, from 0).
    mutating func append(_ cell: DatabaseCell, column index: Int) {
        buffer += prefixes[index]
        switch (layout, cell) {
        case (_, .integer(let value)): ValueBytes.appendInteger(value, to: &buffer)
        case (.csv, .null): break
        case (_, .null): buffer += "null".utf8
        case (.csv, .real(let value)): ValueBytes.appendNumber(value, to: &buffer)
        case (_, .real(let value)):
            ValueBytes.appendJSONNumber(value, to: &buffer)
        case (.csv, .text(let bytes)):
            ValueBytes.withValidUTF8(bytes) { valid, repaired in
                if repaired { noteRepaired(column: index) }
                CSVCell.appendText(valid, protectsFormulas: protectsFormulas, to: &buffer)
            }
        case (_, .text(let bytes)):
            ValueBytes.withValidUTF8(bytes) { valid, repaired in
                if repaired { noteRepaired(column: index) }
                JSONText.appendQuoted(utf8: valid, to: &buffer)
            }
        case (.csv, .blob(let bytes)): CSVCell.appendBlob(bytes, to: &buffer)
        case (_, .blob(let bytes)):
            // Tagged, so that import tells a BLOB from text (docs/fidelity.md).
            buffer += "{\"$base64\": \"".utf8
            ValueBytes.appendBase64(bytes, to: &buffer)
            buffer += "\"}".utf8
        }
    }

    /// Appends a value of column `index` as a store other than SQLite gives it
    /// (PostgreSQL's `bool` as `.bool`): through the same cells where it is one.
    mutating func append(_ value: FieldValue, column index: Int) {
        switch value {
        case .null: append(DatabaseCell.null, column: index)
        case .int(let value): append(DatabaseCell.integer(value), column: index)
        case .double(let value): append(DatabaseCell.real(value), column: index)
        case .text(var text): text.withUTF8 { append(DatabaseCell.text($0), column: index) }
        case .data(let data): data.withUnsafeBytes { append(DatabaseCell.blob($0), column: index) }
        case .bool, .date, .list:
            buffer += prefixes[index]
            if layout == .csv {
                var text = ValueText.text(value, kind: kinds[index], blobsBySize: false)
                text.withUTF8 { CSVCell.appendPlain($0, protectsFormulas: protectsFormulas, to: &buffer) }
            } else {
                ValueText.appendJSON(value, kind: kinds[index], to: &buffer)
            }
        }
    }

    /// Ends a row; writes out the buffer once it holds a chunk.
    mutating func endRow() {
        switch layout {
        case .jsonArray: buffer.append(UInt8(ascii: "}"))
        case .ndjson: buffer += "}\n".utf8
        case .csv: buffer += "\r\n".utf8
        }
        rowCount += 1
        if buffer.count >= Self.chunkSize { writeBuffer() }
    }

    /// Ends the output (a CSV header when there were no rows, JSON's `]`) and flushes it.
    mutating func finish() {
        switch layout {
        case .jsonArray: buffer += (rowCount == 0 ? "[]\n" : "\n]\n").utf8
        case .ndjson: break
        case .csv: if rowCount == 0 { buffer += header }
        }
        writeBuffer()
        sink.flush()
    }

    private mutating func noteRepaired(column index: Int) {
        if repairedText == nil { repairedText = (0, rowCount + 1, columnKeys[index]) }
        repairedText?.count += 1
    }

    private mutating func writeBuffer() {
        guard !buffer.isEmpty else { return }
        sink.write(utf8: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

@available(*, unavailable)
extension ExportEncoder: Sendable {}
