import FormBasics
public import FoundationEssentials

/// A model value: what a field's model property holds once the typed input
/// has been parsed (`Int?`, `Date`, `Bool`, `[String]` ...).
///
/// ```swift
/// let age: FieldValue = .int(42)
/// let foods: FieldValue = .list([.text("pizza"), .text("sushi")])
/// ```
///
/// It sits between the *input* (the text a person types) and the *stored
/// value* (an SQLite value); value transformers and storage codings convert
/// to and from it.
public enum FieldValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case text(String)
    case date(Date)
    case list([FieldValue])
    case data(Data)

    /// Equal values, where a NaN equals the same NaN: a float column holding
    /// NaN (PostgreSQL) read twice is no change, so a save or an import of
    /// what it holds writes nothing. (Hashing, synthesized, agrees: a NaN hashes by its bits.)
    /// Text is equal to the byte: a composed `é` is another value than `e`
    /// and a combining accent (which Swift's `==` calls equal), so typing
    /// one over the other is a change, stored as typed (docs/fidelity.md).
    public static func == (lhs: FieldValue, rhs: FieldValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b || (a.isNaN && a.bitPattern == b.bitPattern)
        case (.text(let a), .text(let b)): return a.hasSameUTF8(as: b)
        case (.date(let a), .date(let b)): return a == b
        case (.list(let a), .list(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        default: return false
        }
    }

    /// True for `.null`, an empty text and an empty list: what `required` rejects.
    public var isEmpty: Bool {
        switch self {
        case .null: return true
        case .text(let s): return s.isEmpty
        case .list(let l): return l.isEmpty
        case .data(let d): return d.isEmpty
        default: return false
        }
    }

    public var textValue: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e18: return Int64(d)
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: return nil
        }
    }

    public var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .int(let i): return i != 0
        default: return nil
        }
    }

    public var listValue: [FieldValue]? {
        if case .list(let l) = self { return l }
        return nil
    }
}

extension FieldValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension FieldValue {
    /// Text or a number: what a JSON string or number gives.
    public var isTextOrNumber: Bool {
        switch self {
        case .text, .int, .double: true
        default: false
        }
    }
}
