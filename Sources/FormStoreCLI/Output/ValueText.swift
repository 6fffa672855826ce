import Foundation
import FormCore

/// How a model value is written out: as text for a table, a CSV cell or a
/// `label: value` line, and as JSON.
enum ValueText {
    static let mask = "••••"

    /// Text for a table, CSV or text output: dates in ISO-8601, lists joined
    /// with ", ", NULL as nothing, BLOBs as base64 (`blobsBySize` shows their size instead).
    static func text(_ value: FieldValue, kind: FieldKind?, blobsBySize: Bool) -> String {
        switch value {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return number(d)
        case .text(let s): return s
        case .date(let d): return date(d, kind: kind)
        case .list(let items):
            return items.map { text($0, kind: nil, blobsBySize: blobsBySize) }.joined(separator: ", ")
        case .data(let data): return blobsBySize ? blobSize(data.count) : data.base64EncodedString()
        }
    }

    /// The value as a JSON value; BLOBs as base64 strings, non-finite numbers as null.
    static func json(_ value: FieldValue, kind: FieldKind?) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? number(d) : "null"
        case .text(let s): return jsonString(s)
        case .date(let d): return jsonString(date(d, kind: kind))
        case .list(let items): return "[" + items.map { json($0, kind: nil) }.joined(separator: ", ") + "]"
        case .data(let data): return jsonString(data.base64EncodedString())
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
        return "<blob \(String(format: "%.1f", size)) \(units[unit])>"
    }

    /// ISO-8601: a date field as `2024-01-31`, a time as `13:45:00`, else
    /// `2024-01-31T13:45:00Z` (with fractions of a second when there are any), in UTC.
    static func date(_ date: Date, kind: FieldKind?) -> String {
        switch kind {
        case .date: return ISO8601.date(date)
        case .time: return ISO8601.time(date)
        default: return ISO8601.shortDateTime(date)
        }
    }

    /// Shortest text that reads back as the same double (`1.5`, `2.0`, `1e-07`).
    static func number(_ d: Double) -> String {
        String(d)
    }

    /// A JSON string literal.
    static func jsonString(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20 || c.value == 0x7F || c.value == 0x2028 || c.value == 0x2029:
                out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON object of one row, keys in column order.
    static func jsonObject(_ row: [FieldValue], columns: [OutputColumn], options: OutputOptions,
                           pretty: Bool = false) -> String {
        let members = zip(columns, row).map { column, value in
            jsonString(column.key) + ": " + json(masked(value, column: column, options: options), kind: column.kind)
        }
        if pretty {
            return members.isEmpty ? "{}" : "{\n  " + members.joined(separator: ",\n  ") + "\n}"
        }
        return "{" + members.joined(separator: ", ") + "}"
    }
}
