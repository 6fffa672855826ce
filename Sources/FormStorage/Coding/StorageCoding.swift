import FormBasics
public import FormCore
import FoundationEssentials

/// Maps a field's model value to the value SQLite stores and back, by field
/// kind and the column's own form (docs/fidelity.md).
///
/// | kind | stored as |
/// | --- | --- |
/// | `bool` | INTEGER 0 or 1 |
/// | `date`, `time`, `datetime` | the form the row (else the column) already uses: text in its layout, a Unix epoch or a Julian day (`DateStorageFormat`) |
/// | `multichoice` | TEXT, a JSON array |
/// | `integer` / `decimal` | INTEGER / REAL |
/// | text kinds | TEXT; in an untyped column, over a value that is not TEXT, text that is exactly an integer or a real is stored as one |
///
/// Data is a BLOB and `.null` is NULL whatever the kind. Decoding forgives
/// what real databases hold: an INTEGER in a text column reads as text `"12"`,
/// a bool stored as `'true'` reads as `true`, and text that does not parse as
/// the kind expects stays text rather than being lost.
///
/// ```swift
/// let coding = StorageCoding(kind: .multichoice)
/// coding.encode(.list(["pizza", "sushi"]))   // .text(#"["pizza","sushi"]"#)
/// coding.decode(.text(#"["pizza"]"#))        // .list([.text("pizza")])
/// ```
public struct StorageCoding: Sendable, Hashable {
    /// The field kind; `nil` for the kind-less mapping (storage class by storage class).
    public var kind: FieldKind?
    /// The form a date is written in when neither the row nor the column
    /// holds one to follow: from the column's declared type.
    public var dateFormat: DateStorageFormat?
    /// A non-NULL value the column holds (read by `TableMapping` for date and
    /// bool columns): the form to follow where the row's own value is NULL.
    public var columnExample: DatabaseValue?
    /// The column has no declared type (`CREATE TABLE t(a, b)`): typed text
    /// that is exactly an integer or a real is stored as INTEGER or REAL.
    public var isUntyped: Bool

    public init(kind: FieldKind?, dateFormat: DateStorageFormat? = nil, isUntyped: Bool = false) {
        self.kind = kind
        self.dateFormat = dateFormat
        self.isUntyped = isUntyped
    }

    /// The kind-less mapping: `FieldValue(_:)` and `DatabaseValue(_:)`.
    public static let kindless = StorageCoding(kind: nil)

    /// Whether the kind holds a date, a time or both.
    public var isDateLike: Bool { kind?.isDateLike == true }

    /// The value to store for a model value, in the form of `example` (the
    /// value it replaces, or the value as it arrived): when `example` already
    /// holds this model value it is returned as it is, byte for byte; a date is
    /// written in the example's form, else the column's (`dateFormat`).
    public func encode(_ value: FieldValue, like example: DatabaseValue? = nil) -> DatabaseValue {
        if let example, !example.isNull,
           Self.isStoredForm(example, of: value, kind: kind) || decode(example) == value { return example }
        // The row's own value sets the form; where it is NULL (or absent), the column's.
        let form: DatabaseValue? = if let example, !example.isNull { example } else { columnExample }
        switch (kind, value) {
        case (_, .date(let date)) where isDateLike:
            let format = form.flatMap(DateStorageFormat.detect) ?? dateFormat
                ?? DateStorageFormat.default(kind: kind!, declaredType: "")
            return format.encode(date)
        case (.decimal?, .int(let int)):
            // Past 2^53 a double would be another number: such an integer is stored as one.
            return int.magnitude > 1 << 53 ? .integer(int) : .real(Double(int))
        case (.bool?, .bool(let bool)):
            return Self.boolValue(bool, like: form)
        case (_, .text(let text)) where isUntyped:
            // A row that holds text there keeps text (`42` typed over `'a'` is `'42'`);
            // else the value is stored in the class it reads as.
            if case .text? = example { return .text(text) }
            return Self.untypedValue(text)
        default:
            // bool, multichoice and the rest store as the kind-less mapping does.
            return DatabaseValue(value)
        }
    }

    /// Whether `example` decodes (`decode(_:kind:)`) to `value`, for the pairs
    /// that show it without decoding: an INTEGER as an integer, a REAL as a
    /// decimal, TEXT as a kind that reads text as it is (or kind-less). False
    /// says only "decode to know".
    static func isStoredForm(_ example: DatabaseValue, of value: FieldValue, kind: FieldKind?) -> Bool {
        switch (example, value) {
        case (.integer(let stored), .int(let model)):
            return stored == model && (kind == nil || kind == .integer)
        case (.real(let stored), .double(let model)):
            return stored == model && (kind == nil || kind == .decimal)
        case (.text(let stored), .text(let model)):
            // The kinds `decode` gives TEXT back as text unchanged; to the byte, as `decode(_:) == value` compares.
            switch kind {
            case nil, .text?, .name?, .multiline?, .password?, .email?, .phone?, .url?, .address?, .state?, .zip?,
                 .choice?, .label?, .comment?, .action?:
                return stored.hasSameUTF8(as: model)
            default:
                return false
            }
        default:
            return false
        }
    }

    /// A bool in the words the column uses (`'true'`/`'false'`, `'Y'`/`'N'`,
    /// `'on'`/`'off'` …, case kept), else INTEGER 1 or 0 (a REAL when the column holds reals).
    static func boolValue(_ bool: Bool, like example: DatabaseValue?) -> DatabaseValue {
        switch example {
        case .text(let word)?:
            let pairs = [("true", "false"), ("t", "f"), ("yes", "no"), ("y", "n"), ("on", "off"), ("1", "0")]
            let lowered = word.lowercased()
            guard let pair = pairs.first(where: { $0.0 == lowered || $0.1 == lowered }) else { break }
            var answer = bool ? pair.0 : pair.1
            if word == word.uppercased() && word != word.lowercased() {
                answer = answer.uppercased()
            } else if let first = word.first, first.isUppercase {
                answer = answer.prefix(1).uppercased() + answer.dropFirst()
            }
            return .text(answer)
        case .real?:
            return .real(bool ? 1 : 0)
        default:
            break
        }
        return .integer(bool ? 1 : 0)
    }

    /// Text typed into an untyped column, in the storage class it reads as:
    /// `1` an INTEGER, `3.14` a REAL, `007` or `1.10` text (they would not read back the same).
    static func untypedValue(_ text: String) -> DatabaseValue {
        if let integer = Int64(text), String(integer) == text { return .integer(integer) }
        if text.contains(where: { $0 == "." || $0 == "e" }), let real = Double(text), real.isFinite,
           String(real) == text {
            return .real(real)
        }
        return .text(text)
    }

    /// The model value for a stored value.
    public func decode(_ value: DatabaseValue) -> FieldValue { Self.decode(value, reading: reading) }

    /// What a row's read decodes a column by: its coding's kind, and whether
    /// a BLOB stays bytes whatever the kind (a column of no type holds bytes
    /// as bytes, shown `x'…'`; a text kind otherwise reads UTF-8 bytes as the
    /// text another client cast them from).
    struct Reading: Sendable, Hashable {
        var kind: FieldKind?
        var bytesStayBytes = false
    }

    /// How a row's read decodes this coding's column.
    var reading: Reading { Reading(kind: kind, bytesStayBytes: isUntyped) }

    /// `decode(_:kind:)` by a column's `reading`.
    static func decode(_ value: DatabaseValue, reading: Reading) -> FieldValue {
        if reading.bytesStayBytes {
            // A column of no type holds each value as it was given: bytes stay bytes, and an
            // INTEGER or REAL stays the number (`list --format json` printed 42 as "42").
            switch value {
            case .blob(let bytes): return .data(bytes)
            case .integer, .real: return FieldValue(value)
            case .null, .text: break
            }
        }
        return decode(value, kind: reading.kind)
    }

    /// `decode(_:kind:)` of a cell read in place, by a column's `reading`.
    static func decode(_ cell: DatabaseCell, reading: Reading) -> FieldValue {
        if reading.bytesStayBytes { return decode(DatabaseValue(cell), reading: reading) }
        return decode(cell, kind: reading.kind)
    }

    /// `decode(_:)` of a coding of `kind`: decoding needs nothing else, so
    /// a row's columns are decoded by their kinds, with no coding copied per column.
    static func decode(_ value: DatabaseValue, kind: FieldKind?) -> FieldValue {
        if value.isNull { return .null }
        guard let kind else { return FieldValue(value) }
        switch kind {
        case .bool:
            return Self.decodeBool(value)
        case .date, .datetime, .time:
            return DateStorageFormat.parse(value).map(FieldValue.date) ?? FieldValue(value)
        case .multichoice:
            if case .text(let text) = value, let list = ListJSON.decode(text) { return .list(list) }
            return FieldValue(value)
        case .integer:
            return Self.decodeInteger(value)
        case .decimal:
            return Self.decodeDecimal(value)
        case .text, .name, .multiline, .password, .email, .phone, .url, .address, .state, .zip:
            return Self.decodeAsText(value)
        case .choice, .label, .comment, .action:
            return FieldValue(value)
        }
    }

    /// `decode(_:kind:)` of a column read in place (`Statement.cell(at:)`):
    /// the pairs a load meets most (an INTEGER of an integer field, a REAL of
    /// a decimal one, TEXT of a text one) become the value `decode(_:kind:)`
    /// makes of them straight from SQLite's, with no `DatabaseValue` made and
    /// switched over first; every other pair goes through it (issue 14).
    static func decode(_ cell: DatabaseCell, kind: FieldKind?) -> FieldValue {
        switch (cell, kind) {
        case (.integer(let i), .integer?): .int(i)
        case (.real(let d), .decimal?): .double(d)
        case (.text(let bytes), .text?): .text(String(decoding: bytes, as: UTF8.self))
        default: decode(DatabaseValue(cell), kind: kind)
        }
    }

    private static func decodeBool(_ value: DatabaseValue) -> FieldValue {
        switch value {
        case .integer(let i): return .bool(i != 0)
        case .real(let d): return .bool(d != 0)
        case .text(let text):
            switch text.trimmingSpaces().lowercased() {
            case "1", "true", "t", "yes", "y", "on": return .bool(true)
            case "0", "false", "f", "no", "n", "off": return .bool(false)
            default: return .text(text)
            }
        default: return FieldValue(value)
        }
    }

    private static func decodeInteger(_ value: DatabaseValue) -> FieldValue {
        switch value {
        case .real(let d): return Int64(exactly: d).map(FieldValue.int) ?? .double(d)
        case .text(let text):
            return Int64(text.trimmingSpaces()).map(FieldValue.int) ?? .text(text)
        default: return FieldValue(value)
        }
    }

    private static func decodeDecimal(_ value: DatabaseValue) -> FieldValue {
        switch value {
        // Past 2^53 a double would be another number: the integer is kept as one.
        case .integer(let i): return .decimal(i)
        case .text(let text):
            // A numeral a double would make another number stays its text, every digit shown.
            return FieldValue.decimal(exactly: text) ?? .text(text)
        default: return FieldValue(value)
        }
    }

    private static func decodeAsText(_ value: DatabaseValue) -> FieldValue {
        switch value {
        case .integer(let i): return .text(String(i))
        case .real(let d): return .text(String(d))
        case .blob(let data):
            // Text that arrived as a blob (a cast, another client): keep it as text when it is
            // UTF-8 that reads as text; bytes with control characters are binary data (an image).
            guard let text = String(data: data, encoding: .utf8),
                  !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" })
            else { return .data(data) }
            return .text(text)
        default: return FieldValue(value)
        }
    }
}
