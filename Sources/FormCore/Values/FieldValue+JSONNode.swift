import FormBasics
import FoundationEssentials

extension FieldValue {
    /// A parsed JSON value: integers stay integers, an object is `.null`
    /// (FieldValue has no object case).
    init(jsonNode node: JSONNode) {
        switch node {
        case .null, .object: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let d, let integer): self = integer.map(FieldValue.int) ?? .double(d)
        case .string(let s): self = .text(s)
        case .array(let items): self = .list(items.map(FieldValue.init(jsonNode:)))
        }
    }

    /// The value as one JSON literal: dates as ISO-8601 strings, data as
    /// base64 strings, a non-finite double as `null`.
    public var jsonLiteral: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? Transform.decimalText(d) : "null"
        case .text(let s): return JSONText.quoted(s)
        case .date(let d): return JSONText.quoted(ISO8601.shortDateTime(d))
        case .list(let l): return "[" + l.map(\.jsonLiteral).joined(separator: ",") + "]"
        case .data(let d): return JSONText.quoted(d.base64EncodedString())
        }
    }
}
