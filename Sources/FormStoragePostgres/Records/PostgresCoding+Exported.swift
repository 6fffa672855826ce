import FormCore
import FoundationEssentials

extension PostgresCoding {
    /// A column's text as `export` writes it, kind-less: whole numbers as
    /// integers, floats as doubles, `bool` as a bool, `bytea` as bytes, and
    /// every other type as the server's own text (`12.50`, `2024-05-01
    /// 13:04:05.123456+00`, `{a,b}`, a jsonb document), which the column
    /// reads back as the same value: export then import is the identity.
    func exported(_ text: String?) -> FieldValue {
        guard let text else { return .null }
        switch family {
        case .integer: return Int64(text).map(FieldValue.int) ?? .text(text)
        // NaN and ±Infinity too: export writes them by name, import reads the name back.
        // (A `nil` in a closure typed `FieldValue` was `.null`: they were exported as NULL.)
        case .float: return Double(text).map(FieldValue.double) ?? .text(text)
        case .bool: return .bool(text == "t")
        case .bytea: return elementFamily == nil ? decode(text) : .text(text)
        default: return .text(text)
        }
    }
}
