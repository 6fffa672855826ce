import FormCore
import Foundation

/// Maps a field's model value to the value SQLite stores and back, by field kind.
///
/// | kind | stored as |
/// | --- | --- |
/// | `bool` | INTEGER 0 or 1 |
/// | `date` | TEXT `yyyy-MM-dd` |
/// | `datetime` | TEXT ISO-8601 in UTC (`2024-05-01T13:04:05.250Z`) |
/// | `time` | TEXT `HH:mm:ss` |
/// | `multichoice` | TEXT, a JSON array |
/// | `integer` / `decimal` | INTEGER / REAL |
/// | text kinds | TEXT |
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

    public init(kind: FieldKind?) {
        self.kind = kind
    }

    /// The kind-less mapping: `FieldValue(_:)` and `DatabaseValue(_:)`.
    public static let kindless = StorageCoding(kind: nil)

    /// The value to store for a model value.
    public func encode(_ value: FieldValue) -> DatabaseValue {
        switch (kind, value) {
        case (.date?, .date(let date)):
            return .text(ISO8601.date(date))
        case (.time?, .date(let date)):
            return .text(ISO8601.time(date))
        case (.decimal?, .int(let int)):
            return .real(Double(int))
        default:
            // datetime, bool, multichoice and the rest store as the kind-less mapping does.
            return DatabaseValue(value)
        }
    }

    /// The model value for a stored value.
    public func decode(_ value: DatabaseValue) -> FieldValue {
        if value.isNull { return .null }
        guard let kind else { return FieldValue(value) }
        switch kind {
        case .bool:
            return Self.decodeBool(value)
        case .date:
            return Self.decodeText(value) { ISO8601.parseDate($0) ?? ISO8601.parseDateTime($0) }
        case .datetime:
            return Self.decodeText(value) { ISO8601.parseDateTime($0) ?? ISO8601.parseDate($0) }
        case .time:
            return Self.decodeText(value) { ISO8601.parseTime($0) ?? ISO8601.parseDateTime($0) }
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

    private static func decodeText(_ value: DatabaseValue, parse: (String) -> Date?) -> FieldValue {
        if case .text(let text) = value, let date = parse(text.trimmingCharacters(in: .whitespaces)) {
            return .date(date)
        }
        return FieldValue(value)
    }

    private static func decodeBool(_ value: DatabaseValue) -> FieldValue {
        switch value {
        case .integer(let i): return .bool(i != 0)
        case .real(let d): return .bool(d != 0)
        case .text(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
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
            return Int64(text.trimmingCharacters(in: .whitespaces)).map(FieldValue.int) ?? .text(text)
        default: return FieldValue(value)
        }
    }

    private static func decodeDecimal(_ value: DatabaseValue) -> FieldValue {
        switch value {
        case .integer(let i): return .double(Double(i))
        case .text(let text):
            if let d = Double(text.trimmingCharacters(in: .whitespaces)), d.isFinite { return .double(d) }
            return .text(text)
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
