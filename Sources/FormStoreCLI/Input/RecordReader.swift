import FormCore

/// One record read for import, with the line it starts on (for error reports).
struct InputRecord: Sendable, Hashable {
    var line: Int
    var values: InputValues
    /// Child rows by group (`import --children`): a member holding an array of objects.
    var rows: [String: [[String: FieldValue]]] = [:]
}

/// Reads records one at a time from a stream.
protocol RecordReader: AnyObject {
    /// The next record; nil at the end of the input.
    /// - throws: `InputError` naming the line.
    func next() throws -> InputRecord?
    /// The column names a format declares once for every record (a CSV header),
    /// known after the first `next()`; nil for formats without one.
    var declaredColumns: [String]? { get }
    /// Tells the reader the names its records are likely to use (an import's
    /// fields and key columns), before the first `next()`: a reader may lay
    /// its records out by them (`InputValues(names:)`) and match each key
    /// against them in place. Other names are still read.
    func expect(names: [String])
}

extension RecordReader {
    var declaredColumns: [String]? { nil }
    /// A reader whose records name their values once (a CSV header) has its names already.
    func expect(names: [String]) {}
}

/// The formats `import` reads.
enum InputFormat: String, Sendable, CaseIterable {
    case ndjson, json, csv

    /// - parameter csvDelimiter: the byte between CSV fields.
    /// - parameter groups: JSON and NDJSON take an array of objects under one of these keys as the group's rows.
    func reader(_ source: any ByteSource, csvDelimiter: UInt8 = UInt8(ascii: ","), groups: Set<String> = []) -> any RecordReader {
        switch self {
        case .ndjson: return NDJSONReader(source, groups: groups)
        case .json: return JSONArrayReader(source, groups: groups)
        case .csv: return CSVReader(source, delimiter: csvDelimiter)
        }
    }

    /// The format a file's extension names, if any.
    init?(pathExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), path[dot...].contains(where: { $0 != "." }) else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        switch ext {
        case "ndjson", "jsonl": self = .ndjson
        case "json": self = .json
        case "csv", "tsv": self = .csv
        default: return nil
        }
    }
}
