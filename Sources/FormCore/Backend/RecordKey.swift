import FormBasics
import FoundationEssentials

/// Identifies a stored record: its primary-key columns and their values, in key order.
///
/// Written `3` for a single key and `col=value,col=value` for a composite one.
public struct RecordKey: Sendable, Hashable, CustomStringConvertible {
    public var columns: [String]
    public var values: [FieldValue]

    public init(columns: [String], values: [FieldValue]) {
        precondition(columns.count == values.count, "a key needs one value per column")
        self.columns = columns
        self.values = values
    }

    public init(_ column: String, _ value: FieldValue) {
        self.init(columns: [column], values: [value])
    }

    /// The value of one key column.
    public subscript(column: String) -> FieldValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }

    /// Each column's value as text (`text(of:)`), as `description` writes it.
    public var valueTexts: [String] { values.map(Self.text(of:)) }

    /// A key column's value as text, as it is typed back: NULL as `NULL`, a
    /// BLOB in hex as SQL writes it (`x'00FF'`), a date in ISO 8601 (a day
    /// as `2024-02-29`).
    public static func text(of value: FieldValue) -> String {
        switch value {
        case .text(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return b ? "1" : "0"
        case .null: return "NULL"
        case .data(let bytes): return bytes.blobLiteral
        case .date(let date):
            // A day (midnight UTC, as a DATE column's value reads) is typed as the day.
            let seconds = date.timeIntervalSince1970
            return seconds.truncatingRemainder(dividingBy: 86_400) == 0 ? ISO8601.date(date) : ISO8601.shortDateTime(date)
        case .list: return "\(value)"
        }
    }

    public var description: String {
        let texts = valueTexts
        if columns.count == 1 { return texts[0] }
        return zip(columns, texts).map { "\($0)=\($1)" }.joined(separator: ",")
    }
}

extension RecordKey {
    /// Why `key` finds no row of `table`: it gives no value for `column`, one
    /// of the columns the table is keyed by (`keyedBy`). Names the columns
    /// the key gave, where "key 1 lacks column 'id'" left out the `uid` asked for.
    public static func lacking(_ column: String, _ key: RecordKey, table: String, keyedBy keyColumns: [String]) -> String {
        let given = zip(key.columns, key.values).map { "\($0) = \(RecordKey.text(of: $1))" }.joined(separator: ", ")
        return "the key \(given.isEmpty ? "(none)" : given) gives no \(column): \(table) is keyed by \(keyColumns.joined(separator: ", "))"
    }
}
