/// What a JSON value holds as a field's value: one conversion, for the JSON
/// door, import and `set F:=` alike.
extension JSONNode {
    /// The node as a plain value (`nil` for an object, which no field holds).
    public var fieldValue: FieldValue? {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let d, let integer): return integer.map(FieldValue.int) ?? .double(d)
        case .string(let s): return .text(s)
        case .array(let items):
            var values: [FieldValue] = []
            values.reserveCapacity(items.count)
            for item in items {
                guard let value = item.fieldValue else { return nil }
                values.append(value)
            }
            return .list(values)
        case .object: return nil
        }
    }
}
