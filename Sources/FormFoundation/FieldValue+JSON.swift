import FormBasics
public import FormCore
import Foundation

/// FieldValue ⇄ JSON objects (the values `JSONSerialization` reads and writes).
///
/// Here, not in FormCore: `NSNull` and `NSNumber` are full Foundation's, which
/// the `formstore` binary does not link (docs/binary.md).
///
/// ```swift
/// FieldValue(json: 42)                     // .int(42)
/// FieldValue.list(["a", 1]).jsonObject     // ["a", 1]
/// FieldValue.date(d).jsonObject            // "2024-05-01T12:00:00Z"
/// ```
///
/// Dates become ISO-8601 strings and data base64 strings; reading them back
/// needs to know the field's kind (`init(json:kind:)`). FieldValue has no
/// object case: a JSON object reads as `.null`.
extension FieldValue {
    /// Reads a JSON object as produced by `JSONSerialization` (or built from
    /// Swift `Bool`, `Int`, `Double`, `String`, arrays and `NSNull`).
    public init(json: Any) {
        switch json {
        case let b as Bool where type(of: json) == Bool.self: self = .bool(b)
        case let i as Int where type(of: json) == Int.self: self = .int(Int64(i))
        case let i as Int64 where type(of: json) == Int64.self: self = .int(i)
        case let d as Double where type(of: json) == Double.self: self = .double(d)
        case is NSNull: self = .null
        case let value as FieldValue: self = value
        case let string as String: self = .text(string)
        case let number as NSNumber: self = FieldValue(number: number)
        case let list as [Any]: self = .list(list.map { FieldValue(json: $0) })
        case let date as Date: self = .date(date)
        case let data as Data: self = .data(data)
        default: self = .null
        }
    }

    /// Reads a JSON object for a field of this kind: ISO-8601 strings become
    /// dates for date, time and datetime fields; lists hold per-element values.
    public init(json: Any, kind: FieldKind) {
        let plain = FieldValue(json: json)
        switch (kind, plain) {
        case (.date, .text(let s)), (.time, .text(let s)), (.datetime, .text(let s)):
            if let date = ISO8601.parseDateTime(s) { self = .date(date) } else { self = plain }
        case (.decimal, .int(let i)):
            self = .double(Double(i))
        default:
            self = plain
        }
    }

    /// The JSON object for this value: `NSNull`, `Bool`, `Int64`, `Double`,
    /// `String` (dates as ISO-8601, data as base64) or `[Any]`.
    public var jsonObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .text(let s): return s
        case .date(let d): return ISO8601.shortDateTime(d)
        case .list(let l): return l.map(\.jsonObject)
        case .data(let d): return d.base64EncodedString()
        }
    }

    /// JSONSerialization's numbers: booleans carry the `c` type, integers an
    /// integer type, everything else is a double.
    private init(number: NSNumber) {
        switch String(cString: number.objCType) {
        case "c", "B": self = .bool(number.boolValue)
        case "C", "s", "S", "i", "I", "l", "L", "q", "Q": self = .int(number.int64Value)
        default: self = .double(number.doubleValue)
        }
    }
}

extension DictionaryModel {
    /// The nested JSON object (values through `FieldValue.jsonObject`).
    public var jsonObject: [String: Any] {
        var object: [String: Any] = [:]
        for (key, value) in values {
            var parts = key.split(separator: ".").map(String.init)
            let last = parts.removeLast()
            Self.put(value.jsonObject, at: parts, last, in: &object)
        }
        return object
    }

    private static func put(_ value: Any, at parts: [String], _ last: String, in object: inout [String: Any]) {
        guard let first = parts.first else { object[last] = value; return }
        var inner = object[first] as? [String: Any] ?? [:]
        put(value, at: Array(parts.dropFirst()), last, in: &inner)
        object[first] = inner
    }
}
