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
        case let decimal as Decimal: values[path] = .double(Double(decimal.description) ?? .nan)
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

// MARK: - Decoding

extension RecordValues {
    /// The keys that have a value, slots in layout order then the others:
    /// what a decoder walks to find a nested struct's dotted keys.
    var presentKeys: [String] {
        var keys = Array(others.keys)
        for index in slots.indices where slots[index] != nil { keys.append(layout.keys[index]) }
        return keys
    }
}

struct ValueDecoder: Decoder {
    /// The values by (dotted) coding key: a session's slots are read through
    /// their layout, one slot per key, with no dictionary built (issue 14).
    let values: RecordValues
    let path: String
    let codingPath: [any CodingKey]
    /// Arrays of structs by (dotted) coding key, each element a row (`ModelCoder+Rows`).
    var rows: [String: [[String: FieldValue]]] = [:]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
            var single = SingleDecoder(value: values[path], codingPath: codingPath)
            return try single.special(type)
        }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedDecoder<Key>(values: values, prefix: path, codingPath: codingPath, rows: rows))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if let table = rows[path], values[path] == nil { return RowsDecoder(rows: table, codingPath: codingPath) }
        switch values[path] {
        case .list(let items): return ListDecoder(items: items, codingPath: codingPath)
        case .null, nil: return ListDecoder(items: [], codingPath: codingPath)
        case .some(let other):
            throw DecodingError.typeMismatch([FieldValue].self, .init(codingPath: codingPath,
                debugDescription: "expected a list, found \(other)"))
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleDecoder(value: values[path], codingPath: codingPath)
    }
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let values: RecordValues
    let prefix: String
    let codingPath: [any CodingKey]
    var rows: [String: [[String: FieldValue]]] = [:]

    var allKeys: [Key] {
        let start = prefix.isEmpty ? "" : prefix + "."
        var names: Set<String> = []
        for path in values.presentKeys where path.hasPrefix(start) && path != prefix {
            let rest = path.dropFirst(start.count)
            names.insert(String(rest.split(separator: ".", maxSplits: 1).first ?? rest))
        }
        return names.compactMap { Key(stringValue: $0) }
    }

    private func path(_ key: Key) -> String { joinPath(prefix, key.stringValue) }

    func contains(_ key: Key) -> Bool {
        let p = path(key)
        return values[p] != nil || rows[p] != nil || values.presentKeys.contains { $0.hasPrefix(p + ".") }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        let p = path(key)
        if let value = values[p] { return value == .null }
        if rows[p] != nil { return false }
        return !values.presentKeys.contains { $0.hasPrefix(p + ".") }
    }

    private func decoder(_ key: Key) -> ValueDecoder {
        ValueDecoder(values: values, path: path(key), codingPath: codingPath + [key], rows: rows)
    }

    // The primitives read their value straight from the dictionary: going
    // through a nested decoder for each cost most of a session's load.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try single(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try single(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try single(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try single(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try single(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try single(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try single(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try single(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try single(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try single(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try single(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try single(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try single(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try single(key).decode(type) }

    /// The value of a primitive key, as the single-value decoder reads it.
    private func single(_ key: Key) throws -> SingleDecoder {
        let p = path(key)
        if let value = values[p] { return SingleDecoder(value: value, parentPath: codingPath, key: key) }
        guard contains(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \"\(p)\""))
        }
        return SingleDecoder(value: nil, parentPath: codingPath, key: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard contains(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \"\(path(key))\""))
        }
        return try decoder(key).unbox(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(values: values, path: joinPath(prefix, "super"), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder(key) }
}

private struct ListDecoder: UnkeyedDecodingContainer {
    let items: [FieldValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(items: [FieldValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    private mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(FieldValue.self, .init(codingPath: codingPath, debugDescription: "the list has ended"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(values: RecordValues(["": items[currentIndex]]), path: "",
                            codingPath: codingPath + [AnyCodingKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().unbox(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleDecoder: SingleValueDecodingContainer {
    let value: FieldValue?
    /// The path is put together only for an error message (most decodes succeed).
    private let parentPath: [any CodingKey]
    private let key: (any CodingKey)?
    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }

    init(value: FieldValue?, codingPath: [any CodingKey]) {
        self.init(value: value, parentPath: codingPath, key: nil)
    }

    init(value: FieldValue?, parentPath: [any CodingKey], key: (any CodingKey)?) {
        self.value = value
        self.parentPath = parentPath
        self.key = key
    }

    private func mismatch<T>(_ type: T.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath,
            debugDescription: "expected \(type), found \(value.map { "\($0)" } ?? "nothing")"))
    }

    func decodeNil() -> Bool { value == nil || value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch value {
        case .bool(let b): return b
        case .int(0): return false
        case .int(1): return true
        default: throw mismatch(type)
        }
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .text(let s) = value else { throw mismatch(type) }
        return s
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard let d = value?.doubleValue else { throw mismatch(type) }
        return d
    }

    func decode(_ type: Float.Type) throws -> Float {
        guard let d = value?.doubleValue else { throw mismatch(type) }
        return Float(d)
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let whole: Int64?
        switch value {
        case .int(let i): whole = i
        case .double(let d): whole = FieldValue.double(d).intValue
        default: whole = nil
        }
        guard let whole, let exact = T(exactly: whole) else { throw mismatch(type) }
        return exact
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ValueDecoder(values: RecordValues(value.map { ["": $0] } ?? [:]), path: "", codingPath: codingPath).unbox(type)
    }

    /// Date, Data, URL and Decimal, which FieldValue holds directly.
    mutating func special<T>(_ type: T.Type) throws -> T {
        let result: Any?
        switch value {
        case .date(let d) where T.self == Date.self: result = d
        case .text(let s) where T.self == Date.self: result = ISO8601.parseDateTime(s)
        case .data(let d) where T.self == Data.self: result = d
        case .text(let s) where T.self == URL.self: result = URL(string: s)
        case .some(let v) where T.self == Decimal.self: result = v.doubleValue.map { Decimal($0) }
        default: result = nil
        }
        guard let typed = result as? T else { throw mismatch(type) }
        return typed
    }
}
