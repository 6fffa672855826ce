import FormBasics
import FormCore
import FormStorage
import FoundationEssentials

/// Maps a field's model value to the text a PostgreSQL column takes as a
/// bound parameter, and the column's text back, by the column's type and the
/// field's kind. PostgreSQL keeps every value in its column's own type, so
/// there is no row form to follow as in SQLite (docs/fidelity.md): a date is
/// a `date`, a flag a `bool`, a list an array (or JSON in a json or text column).
///
/// ```swift
/// let coding = PostgresCoding(kind: .multichoice, column: tagsColumn)   // text[]
/// coding.encode(.list(["a", "b c"]))   // #"{"a","b c"}"#
/// ```
struct PostgresCoding: Sendable, Hashable {
    let kind: FieldKind?
    let family: PostgresTypeFamily
    /// The element family for an array column.
    let elementFamily: PostgresTypeFamily?
    /// A `timetz` (text, as the server writes it, unless a spec makes it a time field):
    /// a time is written with its offset (UTC), as a timestamp is.
    let timeHasZone: Bool

    init(kind: FieldKind?, column: PostgresColumn?) {
        self.kind = kind
        family = PostgresTypeFamily(typeName: column?.typeName ?? "text")
        elementFamily = column?.elementTypeName.map(PostgresTypeFamily.init(typeName:))
        timeHasZone = column?.typeName == "timetz"
    }

    private var isDateLike: Bool { kind?.isDateLike == true }

    /// The parameter text for a model value; nil binds NULL.
    func encode(_ value: FieldValue) -> String? {
        if elementFamily != nil, case .list(let list) = value { return Self.arrayLiteral(list) }
        switch value {
        case .null: return nil
        case .bool(let b): return family == .integer || family == .numeric ? (b ? "1" : "0") : (b ? "true" : "false")
        case .int(let i): return family == .bool ? (i != 0 ? "true" : "false") : String(i)
        case .double(let d):
            // A whole number typed as 6 is stored as 6, not 6.0: a `numeric` keeps the scale it is given.
            if family == .integer || family == .numeric, let i = Int64(exactly: d) { return String(i) }
            return ValueBytes.nonFiniteName(d) ?? String(d)
        case .text(let s): return s
        case .date(let date): return encodeDate(date)
        case .list(let list): return ListJSON.encode(list)
        case .data(let data):
            guard family == .bytea else { return String(decoding: data, as: UTF8.self) }
            return "\\x" + data.hexadecimal()
        }
    }

    /// A date as the column's type takes it, to the microsecond PostgreSQL keeps.
    private func encodeDate(_ date: Date) -> String {
        switch family {
        case .date: return ISO8601.date(date)
        case .time: return DateStorageFormat.TextLayout.timeMicroseconds.format(date)
        case .timestamp: return DateStorageFormat.TextLayout.microseconds.format(date)
        default:
            switch kind {
            case .date?: return ISO8601.date(date)
            // A `timetz` (a spec's time field over one) given no offset takes the session's
            // TimeZone, so 11:00+03 typed was stored as 08:00 in New York's: the time (UTC) goes with its offset.
            case .time? where timeHasZone: return DateStorageFormat.TextLayout.timeMicroseconds.format(date) + "+00"
            case .time?: return ISO8601.time(date)
            default: return ISO8601.dateTime(date)
            }
        }
    }

    /// The model value for a column's text (nil: NULL).
    func decode(_ text: String?) -> FieldValue {
        guard let text else { return .null }
        if let elementFamily {
            // Only a multichoice reads the elements; any other kind keeps the literal, exactly.
            guard kind == .multichoice, let elements = Self.arrayElements(text) else { return .text(text) }
            return .list(elements.map { Self.decode($0, family: elementFamily, kind: nil) })
        }
        if kind == .multichoice, family == .json || family == .text, let list = ListJSON.decode(text) {
            return .list(list)
        }
        return Self.decode(text, family: family, kind: kind)
    }

    private static func decode(_ text: String?, family: PostgresTypeFamily, kind: FieldKind?) -> FieldValue {
        guard let text else { return .null }
        switch family {
        case .bool: return .bool(text == "t")
        case .integer:
            if kind == .bool { return .bool(text != "0") }
            return Int64(text).map(FieldValue.int) ?? .text(text)
        case .float: return Double(text).map(FieldValue.double) ?? .text(text)
        case .numeric:
            // Exact text unless the field asks for a number: a kind-less read keeps every digit.
            if kind == .integer, let i = Int64(text) { return .int(i) }
            // A numeral a double would make another number (a numeric(30,10)'s) stays its text, every digit shown.
            if kind == .decimal || kind == .integer, let decimal = FieldValue.decimal(exactly: text) { return decimal }
            return .text(text)
        case .date: return ISO8601.parseDate(text).map(FieldValue.date) ?? .text(text)
        // To the microsecond; a time of day as its clock reads (a `timetz`'s
        // offset is not a day's), a timestamp with the offset the server writes (`+00`, `+05:30`).
        case .time:
            let clock = String(text.prefix { $0 != "+" && $0 != "-" })
            return DateStorageFormat.TextLayout.read(clock).map { FieldValue.date($0.date) } ?? .text(text)
        case .timestamp: return DateStorageFormat.TextLayout.read(text).map { FieldValue.date($0.date) } ?? .text(text)
        case .bytea: return Self.bytes(fromHex: text).map(FieldValue.data) ?? .text(text)
        case .json, .text:
            if kind?.isDateLike == true, let date = ISO8601.parse(text) {
                return .date(date)
            }
            return .text(text)
        }
    }

    private static func bytes(fromHex text: String) -> Data? {
        guard text.hasPrefix("\\x") else { return nil }
        var data = Data()
        var high: UInt8?
        for byte in text.utf8.dropFirst(2) {
            guard let nibble = HexDigit.value(byte) else { return nil }
            if let h = high { data.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        return high == nil ? data : nil
    }

    /// A one-dimensional array literal: `{"a","b \"c\"",NULL}`.
    static func arrayLiteral(_ list: [FieldValue]) -> String {
        let elements = list.map { value -> String in
            let text: String
            switch value {
            case .null: return "NULL"
            case .text(let s): text = s
            case .bool(let b): text = b ? "true" : "false"
            case .int(let i): text = String(i)
            case .double(let d): text = String(d)
            case .date(let date): text = ISO8601.dateTime(date)
            case .list(let inner): text = arrayLiteral(inner)
            case .data(let data): text = String(decoding: data, as: UTF8.self)
            }
            return "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }
        return "{" + elements.joined(separator: ",") + "}"
    }

    /// The elements of a one-dimensional array's text (nil for NULL elements);
    /// nil when the text is not such an array.
    static func arrayElements(_ text: String) -> [String?]? {
        let chars = Array(text)
        guard chars.first == "{", chars.last == "}" else { return nil }
        var elements: [String?] = []
        var index = 1
        if chars.count == 2 { return [] }
        while index < chars.count - 1 {
            var element = ""
            if chars[index] == "\"" {
                index += 1
                while index < chars.count - 1, chars[index] != "\"" {
                    if chars[index] == "\\" { index += 1 }
                    element.append(chars[index])
                    index += 1
                }
                index += 1
                elements.append(element)
            } else {
                while index < chars.count - 1, chars[index] != "," {
                    if chars[index] == "{" { return nil }
                    element.append(chars[index])
                    index += 1
                }
                elements.append(element == "NULL" ? nil : element)
            }
            guard index == chars.count - 1 || chars[index] == "," else { return nil }
            index += 1
        }
        return elements
    }
}
