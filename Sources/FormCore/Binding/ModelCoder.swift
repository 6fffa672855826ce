import FormBasics
import FoundationEssentials

/// Maps a Codable model ⇄ `[String: FieldValue]` by coding keys.
///
/// ```swift
/// struct Profile: Codable { var name: String; var age: Int?; var address: Address }
/// let values = try ModelCoder.encode(profile)
/// // ["name": .text("Ada"), "age": .null, "address.city": .text("Paris"), ...]
/// let back = try ModelCoder.decode(Profile.self, from: values)
/// ```
///
/// Integers → `.int`, `Double`/`Float` → `.double`, `Bool` → `.bool`,
/// `String` (and `URL`) → `.text`, `Date` → `.date`, `Data` → `.data`,
/// arrays → `.list`, `nil` → `.null` (kept, so every key is listed), and a
/// nested Codable struct → its keys flattened with dots (`address.city`).
/// Enums with raw values map to their raw value. An array of structs has no
/// FieldValue: `encode` leaves it out and `encodeRows` gives it as the rows of
/// a repeating group (`decode(_:from:rows:)` reads it back). Decoding is lenient where no information is lost: integral
/// doubles read as integers, `0`/`1` as booleans, `.null` as an empty array.
public enum ModelCoder {
    /// The model's values by (dotted) coding key.
    /// - throws: `EncodingError` for a value that has no FieldValue form.
    public static func encode<Model: Encodable>(_ model: Model) throws -> [String: FieldValue] {
        let sink = EncodingSink()
        try sink.box(model, at: "")
        if let single = sink.values[""] {
            throw EncodingError.invalidValue(model, .init(codingPath: [],
                debugDescription: "a model must encode as keyed values, not \(single)"))
        }
        return sink.values
    }

    /// The model's arrays of structs by (dotted) coding key, each element a row
    /// of values by coding key: what a repeating group bound to the array shows.
    ///
    /// ```swift
    /// try ModelCoder.encodeRows(order)["lines"]   // [["product": "Tea", "quantity": 1], …]
    /// ```
    public static func encodeRows<Model: Encodable>(_ model: Model) throws -> [String: [[String: FieldValue]]] {
        let sink = EncodingSink()
        try sink.box(model, at: "")
        return sink.rows
    }

    /// A model from values by (dotted) coding key.
    /// - throws: `DecodingError` naming the key that is missing or has the wrong type.
    public static func decode<Model: Decodable>(_ type: Model.Type, from values: [String: FieldValue]) throws -> Model {
        try ValueDecoder(values: RecordValues(values), path: "", codingPath: []).unbox(type)
    }

    /// One value (not a whole model) as a FieldValue; `nil` for a value that
    /// encodes as keyed values (a nested struct).
    public static func encodeValue<Value: Encodable>(_ value: Value) throws -> FieldValue? {
        let sink = EncodingSink()
        try sink.box(value, at: "")
        return sink.values[""]
    }

    /// One value (not a whole model) from a FieldValue.
    public static func decodeValue<Value: Decodable>(_ type: Value.Type, from value: FieldValue) throws -> Value {
        try ValueDecoder(values: RecordValues(["": value]), path: "", codingPath: []).unbox(type)
    }
}

/// A coding key made from a string or an index.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = String(intValue); self.intValue = intValue }
}

func joinPath(_ prefix: String, _ key: String) -> String {
    prefix.isEmpty ? key : "\(prefix).\(key)"
}

// MARK: - Encoding

final class EncodingSink {
    var values: [String: FieldValue] = [:]
    /// Arrays of structures by path: rows, not values.
    var rows: [String: [[String: FieldValue]]] = [:]

    func box<T: Encodable>(_ value: T, at path: String, codingPath: [any CodingKey] = []) throws {
        switch value {
        case let date as Date: values[path] = .date(date)
        case let data as Data: values[path] = .data(data)
        case let url as URL: values[path] = .text(url.absoluteString)
        // A double where it holds the decimal exactly, else its every digit as text (a decimal field
        // holds such a numeral, and a store that would round it refuses it): it was rounded to a double.
        case let decimal as Decimal: values[path] = FieldValue.decimal(exactly: decimal.description) ?? .text(decimal.description)
        default: try value.encode(to: ValueEncoder(sink: self, path: path, codingPath: codingPath))
        }
    }
}

private struct ValueEncoder: Encoder {
    let sink: EncodingSink
    let path: String
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedEncoder<Key>(sink: sink, prefix: path, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        sink.values[path] = .list([])
        return ListEncoder(sink: sink, path: path, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleEncoder(sink: sink, path: path, codingPath: codingPath)
    }
}

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: EncodingSink
    let prefix: String
    let codingPath: [any CodingKey]

    private func put(_ value: FieldValue, _ key: Key) { sink.values[joinPath(prefix, key.stringValue)] = value }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.text(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.double(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(try wide(value, key), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(try wide(value, key), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try sink.box(value, at: joinPath(prefix, key.stringValue), codingPath: codingPath + [key])
    }

    // Synthesized conformances skip nil optionals; record them so every key is listed.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { put(.null, key) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedEncoder<NestedKey>(sink: sink, prefix: joinPath(prefix, key.stringValue),
                                                       codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let path = joinPath(prefix, key.stringValue)
        sink.values[path] = .list([])
        return ListEncoder(sink: sink, path: path, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        ValueEncoder(sink: sink, path: joinPath(prefix, "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ValueEncoder(sink: sink, path: joinPath(prefix, key.stringValue), codingPath: codingPath + [key])
    }

    private func wide<T: BinaryInteger>(_ value: T, _ key: Key) throws -> FieldValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath + [key],
                                                          debugDescription: "\(value) does not fit in Int64"))
        }
        return .int(exact)
    }
}

private struct ListEncoder: UnkeyedEncodingContainer {
    let sink: EncodingSink
    let path: String
    let codingPath: [any CodingKey]
    var count: Int { sink.values[path]?.listValue?.count ?? 0 }

    private func append(_ value: FieldValue) {
        sink.values[path] = .list((sink.values[path]?.listValue ?? []) + [value])
    }

    mutating func encodeNil() throws { append(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let element = EncodingSink()
        try element.box(value, at: "", codingPath: codingPath + [AnyCodingKey(intValue: count)])
        guard let single = element.values[""], element.values.count == 1 else {
            // A structure: a row of the array, which then has no FieldValue of its own.
            sink.rows[path, default: []].append(element.values)
            sink.values[path] = nil
            return
        }
        append(single)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        // Lists of structures have no FieldValue form; their keys land beside the list and are ignored.
        KeyedEncodingContainer(KeyedEncoder<NestedKey>(sink: EncodingSink(), prefix: path, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        ListEncoder(sink: EncodingSink(), path: path, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        ValueEncoder(sink: EncodingSink(), path: path, codingPath: codingPath)
    }
}

private struct SingleEncoder: SingleValueEncodingContainer {
    let sink: EncodingSink
    let path: String
    let codingPath: [any CodingKey]

    private func put(_ value: FieldValue) { sink.values[path] = value }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.text(value)) }
    mutating func encode(_ value: Double) throws { put(.double(value)) }
    mutating func encode(_ value: Float) throws { put(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { put(.int(value)) }
    mutating func encode(_ value: UInt) throws { put(try wide(value)) }
    mutating func encode(_ value: UInt8) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { put(try wide(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try sink.box(value, at: path, codingPath: codingPath) }

    private func wide<T: BinaryInteger>(_ value: T) throws -> FieldValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath,
                                                          debugDescription: "\(value) does not fit in Int64"))
        }
        return .int(exact)
    }
}

