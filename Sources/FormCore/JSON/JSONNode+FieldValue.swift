import FoundationEssentials

/// What a JSON value holds as a field's value: one conversion, for the JSON
/// door, import and `set F:=` alike.
extension JSONNode {
    /// The node as a plain value.
    ///
    /// - A list of plain values is a `.list` (a multichoice field's).
    /// - `{"$base64": "…"}`, as export writes a BLOB, is its bytes.
    /// - Any other object, and a list holding one, is its JSON text, written
    ///   compactly with its members in order: a JSON column's document, as
    ///   `sqlite-utils` and others write one nested. A field of another kind
    ///   refuses that text as it refuses any text it cannot read.
    ///
    /// `nil` only for `$base64` that is not base64.
    public var fieldValue: FieldValue? {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let d, let integer): return integer.map(FieldValue.int) ?? .double(d)
        case .string(let s): return .text(s)
        case .array(let items):
            guard !items.contains(where: \.holdsObject) else { return .text(compactText) }
            var values: [FieldValue] = []
            values.reserveCapacity(items.count)
            for item in items {
                guard let value = item.fieldValue else { return nil }
                values.append(value)
            }
            return .list(values)
        case .object(let members):
            guard members.count == 1, members[0].key == "$base64" else { return .text(compactText) }
            guard case .string(let text) = members[0].value, let data = Data(base64Encoded: text) else { return nil }
            return .data(data)
        }
    }

    /// Whether the node is a document a field keeps as its JSON text (`fieldValue`):
    /// an object other than `{"$base64": …}`, or an array holding an object.
    public var isDocument: Bool {
        switch self {
        case .object(let members): !(members.count == 1 && members[0].key == "$base64")
        case .array: holdsObject
        default: false
        }
    }

    /// Whether the node is an object or holds one at any depth.
    private var holdsObject: Bool {
        switch self {
        case .object: return true
        case .array(let items): return items.contains(where: \.holdsObject)
        default: return false
        }
    }

    /// The node as compact JSON text (no spaces, members in order), spelled
    /// by the pieces every JSON writer shares (docs/values.md).
    public var compactText: String {
        var out: [UInt8] = []
        appendCompact(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func appendCompact(to out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .number(let d, let integer):
            if let integer {
                ValueBytes.appendInteger(integer, to: &out)
            } else if d.isFinite {
                ValueBytes.appendNumber(d, to: &out)
            } else {
                out += "null".utf8
            }
        case .string(let s): JSONText.appendQuoted(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.appendCompact(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.appendCompact(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
