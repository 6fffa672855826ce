import FormBasics
public import FoundationEssentials

/// A value as SQLite stores it: one of its five storage classes.
///
/// ```swift
/// let values: [DatabaseValue] = [.null, .integer(42), .real(1.5), .text("Zoë"), .blob(Data([0xFF]))]
/// ```
///
/// See <https://www.sqlite.org/datatype3.html>.
public enum DatabaseValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// An INTEGER or a REAL.
    public var isNumber: Bool {
        switch self {
        case .integer, .real: return true
        default: return false
        }
    }

    /// The storage class name SQLite's `typeof()` returns: `null`, `integer`, `real`, `text` or `blob`.
    public var storageClass: String {
        switch self {
        case .null: return "null"
        case .integer: return "integer"
        case .real: return "real"
        case .text: return "text"
        case .blob: return "blob"
        }
    }

    /// Shows the value for debugging; never used in error descriptions.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        case .text(let s): return "'" + s.replacing("'", with: "''") + "'"
        case .blob(let d): return "X'" + d.hexadecimal(uppercase: true) + "'"
        }
    }
}

extension DatabaseValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
}

extension DatabaseValue {
    /// The value of a cell, copied out of SQLite's memory.
    init(_ cell: DatabaseCell) {
        switch cell {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        // Decoded with the byte count: text may hold NUL characters.
        case .text(let bytes): self = .text(String(decoding: bytes, as: UTF8.self))
        case .blob(let bytes): self = .blob(Data(bytes))
        }
    }
}
