import FormBasics
public import FormCore
import FoundationEssentials

/// A multichoice list as JSON array text: `["pizza","sushi"]`, written
/// compactly and deterministically so equal lists store equal text (public:
/// FormStoragePostgres writes a list into a json or text column the same way).
public enum ListJSON {
    public static func encode(_ list: [FieldValue]) -> String {
        var out: [UInt8] = []
        append(list, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The list in a JSON array; `nil` when the text is not one.
    public static func decode(_ text: String) -> [FieldValue]? {
        guard text.trimmingSpacesAndNewlines().hasPrefix("["),
              let elements = try? JSONDecoder().decode([Element].self, from: Data(text.utf8)) else { return nil }
        return elements.map(\.value)
    }

    /// The bytes of `encode`, spelled by the pieces every JSON writer shares (docs/values.md).
    private static func append(_ list: [FieldValue], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, value) in list.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            switch value {
            case .null: out += "null".utf8
            case .bool(let b): out += (b ? "true" : "false").utf8
            case .int(let i): ValueBytes.appendInteger(i, to: &out)
            // JSON has no infinity or NaN.
            case .double(let d): if d.isFinite { ValueBytes.appendNumber(d, to: &out) } else { out += "null".utf8 }
            case .text(let s): JSONText.appendQuoted(s, to: &out)
            case .date(let date): JSONText.appendQuoted(ISO8601.dateTime(date), to: &out)
            case .list(let list): append(list, to: &out)
            case .data(let data):
                out.append(UInt8(ascii: "\""))
                data.withUnsafeBytes { ValueBytes.appendBase64($0, to: &out) }
                out.append(UInt8(ascii: "\""))
            }
        }
        out.append(UInt8(ascii: "]"))
    }

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
