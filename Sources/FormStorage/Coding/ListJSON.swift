import FormBasics
import FormCore
import FoundationEssentials

/// A multichoice list as JSON array text: `["pizza","sushi"]`, written
/// compactly and deterministically so equal lists store equal text (public:
/// FormStoragePostgres writes a list into a json or text column the same way).
public enum ListJSON {
    public static func encode(_ list: [FieldValue]) -> String {
        "[" + list.map(element).joined(separator: ",") + "]"
    }

    /// The list in a JSON array; `nil` when the text is not one.
    public static func decode(_ text: String) -> [FieldValue]? {
        guard text.trimmingSpacesAndNewlines().hasPrefix("["),
              let elements = try? JSONDecoder().decode([Element].self, from: Data(text.utf8)) else { return nil }
        return elements.map(\.value)
    }

    private static func element(_ value: FieldValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        // JSON has no infinity or NaN.
        case .double(let d): return d.isFinite ? String(d) : "null"
        case .text(let s): return string(s)
        case .date(let date): return string(ISO8601.dateTime(date))
        case .list(let list): return encode(list)
        case .data(let data): return string(data.base64EncodedString())
        }
    }

    private static func string(_ text: String) -> String { JSONText.quoted(text) }

    /// One decoded element: the first JSON type that fits, in order.
    private struct Element: Decodable {
        let value: FieldValue

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                value = .null
            } else if let b = try? container.decode(Bool.self) {
                value = .bool(b)
            } else if let i = try? container.decode(Int64.self) {
                value = .int(i)
            } else if let d = try? container.decode(Double.self) {
                value = .double(d)
            } else if let s = try? container.decode(String.self) {
                value = .text(s)
            } else {
                value = .list(try container.decode([Element].self).map(\.value))
            }
        }
    }
}
