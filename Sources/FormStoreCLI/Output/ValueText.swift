import FormBasics
import FormCore
import FoundationEssentials

/// How a model value is written out: as text for a table, a CSV cell or a
/// `label: value` line, and as JSON.
enum ValueText {
    /// What a secure field is printed as (`Field.shownSecret`), which read back as JSON is no value.
    static let mask = Field.shownSecret

    /// Empty text as tables, `show` and the prompts show it, apart from NULL
    /// (shown as nothing): `""`, as it is typed (docs/fidelity.md).
    static let emptyText = "\"\""

    /// Text for a table, CSV or text output: dates in ISO-8601, lists joined
    /// with ", ", NULL as nothing, BLOBs as base64 (`blobsBySize` shows their size instead).
    static func text(_ value: FieldValue, kind: FieldKind?, blobsBySize: Bool) -> String {
        switch value {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return number(d)
        case .text(let s): return s
        case .date(let d): return shownDate(d, kind: kind)
        case .list(let items):
            return items.map { text($0, kind: nil, blobsBySize: blobsBySize) }.joined(separator: ", ")
        case .data(let data): return blobsBySize ? blobSize(data.count) : data.base64EncodedString()
        }
    }

    /// The value as a JSON value; BLOBs as `{"$base64": "…"}`, non-finite numbers as null.
    static func json(_ value: FieldValue, kind: FieldKind?) -> String {
        var out: [UInt8] = []
        appendJSON(value, kind: kind, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `json(value, kind:)` as UTF-8: an export writes a million rows
    /// this way without building a String per value.
    static func appendJSON(_ value: FieldValue, kind: FieldKind?, to out: inout [UInt8]) {
        switch value {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let i): ValueBytes.appendInteger(i, to: &out)
        case .double(let d): ValueBytes.appendJSONNumber(d, to: &out)
        case .text(let s): JSONText.appendQuoted(s, to: &out)
        case .date(let d): JSONText.appendQuoted(date(d, kind: kind), to: &out)
        case .list(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", ".utf8 }
                appendJSON(item, kind: nil, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .data(let data):
            // Tagged, so that import tells a BLOB from text (docs/fidelity.md).
            out += "{\"$base64\": \"".utf8
            data.withUnsafeBytes { ValueBytes.appendBase64($0, to: &out) }
            out += "\"}".utf8
        }
    }

    /// The value or, for a secure column not revealed, the mask (an empty value stays empty).
    static func masked(_ value: FieldValue, column: OutputColumn, options: OutputOptions) -> FieldValue {
        guard column.isSecure, !options.revealSecure, !value.isEmpty else { return value }
        return .text(mask)
    }

    /// `<blob 12 bytes>`, `<blob 1.2 KB>`, `<blob 3.4 MB>`.
    static func blobSize(_ count: Int) -> String {
        if count < 1024 { return "<blob \(count) byte\(count == 1 ? "" : "s")>" }
        let units = ["KB", "MB", "GB", "TB"]
        var size = Double(count) / 1024
        var unit = 0
        while size >= 1024 && unit < units.count - 1 {
            size /= 1024
            unit += 1
        }
        // One decimal, rounded half up as printf's %.1f shows these sizes.
        let tenths = Int((size * 10).rounded())
        return "<blob \(tenths / 10).\(tenths % 10) \(units[unit])>"
    }

    /// For people, locale-free with its seconds: `2024-01-31`, `13:45:00`,
    /// `2024-01-31 13:45:00` (UTC; fractions of a second when there are any).
    static func shownDate(_ date: Date, kind: FieldKind?) -> String {
        switch kind {
        case .date, .time: return self.date(date, kind: kind)
        default:
            // JSON's text, fraction and all, with a space for the T and no Z.
            let iso = ISO8601.text(date, kind: kind)
            return String(iso.dropLast().replacing("T", with: " "))
        }
    }

    /// ISO-8601 (JSON): a date field as `2024-01-31`, a time as `13:45:00`, else
    /// `2024-01-31T13:45:00Z` (with fractions of a second when there are any), in UTC.
    static func date(_ date: Date, kind: FieldKind?) -> String { ISO8601.text(date, kind: kind) }

    /// Shortest text that reads back as the same double (`1.5`, `2.0`, `1e-07`).
    static func number(_ d: Double) -> String {
        String(d)
    }

    /// A JSON object of one row, keys in column order.
    static func jsonObject(_ row: [FieldValue], columns: [OutputColumn], options: OutputOptions,
                           pretty: Bool = false) -> String {
        var out: [UInt8] = []
        appendJSONObject(row, columns: columns, options: options, pretty: pretty, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `jsonObject(...)` as UTF-8.
    static func appendJSONObject(_ row: [FieldValue], columns: [OutputColumn], options: OutputOptions,
                                 pretty: Bool = false, to out: inout [UInt8]) {
        guard !(pretty && row.isEmpty) else { out += "{}".utf8; return }
        out += (pretty ? "{\n  " : "{").utf8
        for (index, (column, value)) in zip(columns, row).enumerated() {
            if index > 0 { out += (pretty ? ",\n  " : ", ").utf8 }
            JSONText.appendQuoted(column.key, to: &out)
            out += ": ".utf8
            appendJSON(masked(value, column: column, options: options), kind: column.kind, to: &out)
        }
        ReferenceLabels.appendJSONMember(row, columns: columns, separator: pretty ? ",\n  " : ", ", to: &out)
        out += (pretty ? "\n}" : "}").utf8
    }
}
