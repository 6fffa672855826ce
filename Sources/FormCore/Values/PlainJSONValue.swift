import FormBasics
import FoundationEssentials

/// A `FieldValue` as a person or a service writes it in JSON: `null`, `true`,
/// `42`, `3.5`, `"text"`, `[...]`; a date as ISO-8601 text, bytes as
/// `{"$base64": "…"}`, a float that is no number as `"NaN"`, `"Infinity"` or
/// `"-Infinity"` (the export's conventions). The one shape FormStore's
/// outcomes, errors and conflicts use (docs/service.md).
///
/// Unlike `FieldValue`'s own `Codable` form (tagged, for drafts), this one
/// does not keep the type: text that looks like a date reads back as text.
public struct PlainJSONValue: Codable, Sendable, Hashable {
    public var value: FieldValue

    public init(_ value: FieldValue) { self.value = value }

    private enum BytesKey: String, CodingKey { case base64 = "$base64" }

    public init(from decoder: any Decoder) throws {
        if let bytes = try? decoder.container(keyedBy: BytesKey.self),
           let text = try bytes.decodeIfPresent(String.self, forKey: .base64) {
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .base64, in: bytes, debugDescription: "not base64")
            }
            value = .data(data)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { value = .null }
        else if let b = try? single.decode(Bool.self) { value = .bool(b) }
        else if let i = try? single.decode(Int64.self) { value = .int(i) }
        else if let d = try? single.decode(Double.self) { value = .double(d) }
        else if let s = try? single.decode(String.self) { value = .text(s) }
        else { value = .list(try single.decode([PlainJSONValue].self).map(\.value)) }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .data(let data) = value {
            var c = encoder.container(keyedBy: BytesKey.self)
            try c.encode(data.base64EncodedString(), forKey: .base64)
            return
        }
        var single = encoder.singleValueContainer()
        switch value {
        case .null: try single.encodeNil()
        case .bool(let b): try single.encode(b)
        case .int(let i): try single.encode(i)
        // JSON has no number for NaN and ±Infinity: written by name, as export writes them.
        case .double(let d): if let name = ValueBytes.nonFiniteName(d) { try single.encode(name) } else { try single.encode(d) }
        case .text(let s): try single.encode(s)
        case .date(let d): try single.encode(ISO8601.shortDateTime(d))
        case .list(let items): try single.encode(items.map(PlainJSONValue.init))
        case .data: break
        }
    }
}
