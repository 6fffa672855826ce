import FormBasics
import FoundationEssentials

extension RecordValues {
    /// The keys that have a value, slots in layout order then the others:
    /// what a decoder walks to find a nested struct's dotted keys.
    var presentKeys: [String] {
        var keys = Array(others.keys)
        for index in slots.indices where slots[index] != nil { keys.append(layout.keys[index]) }
        return keys
    }
}

/// A class: `T(from:)` takes the decoder as `any Decoder`, and a struct
/// this size was copied into a box of its own for it, per model decoded
/// (issue 14); a class goes in as a reference.
final class ValueDecoder: Decoder {
    /// The values by (dotted) coding key: a session's slots are read through
    /// their layout, one slot per key, with no dictionary built (issue 14).
    let values: RecordValues
    let path: String
    let codingPath: [any CodingKey]
    /// Arrays of structs by (dotted) coding key, each element a row (`ModelCoder+Rows`).
    let rows: [String: [[String: FieldValue]]]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(values: RecordValues, path: String, codingPath: [any CodingKey], rows: [String: [[String: FieldValue]]] = [:]) {
        self.values = values
        self.path = path
        self.codingPath = codingPath
        self.rows = rows
    }

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

/// A keyed container over the record's slots. Synthesized `init(from:)`
/// asks for the keys in declaration order, which is usually the layout's
/// order: each key is looked for first in the slot after the last one found
/// (one string comparison), and hashed only when it is not there (issue 14).
/// A class, so the standard library's box around it copies a reference, not
/// the record, per key.
private final class KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let values: RecordValues
    let prefix: String
    let codingPath: [any CodingKey]
    let rows: [String: [[String: FieldValue]]]
    /// The slot of the key last found, where the next key is looked for first.
    private var lastSlot = -1

    init(values: RecordValues, prefix: String, codingPath: [any CodingKey], rows: [String: [[String: FieldValue]]]) {
        self.values = values
        self.prefix = prefix
        self.codingPath = codingPath
        self.rows = rows
    }

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

    /// The slot of `key` when the layout has one; the next key is looked for after it.
    /// A top-level key in the slot after the last is compared here, with no
    /// call: that is nearly every key of a load (issue 14).
    @inline(__always)
    private func slot(_ key: Key) -> Int? {
        let name = key.stringValue
        let next = lastSlot &+ 1
        let keys = values.layout.keys
        if prefix.isEmpty, next < keys.count, keys[next] == name {
            lastSlot = next
            return next
        }
        guard let slot = values.layout.position(of: name, under: prefix, near: lastSlot) else { return nil }
        lastSlot = slot
        return slot
    }

    /// The value of `key`, from its slot when the layout has one.
    private func value(_ key: Key) -> FieldValue? { read(key) { $0 } }

    /// `key`'s value as `convert` reads it, looked at where it is kept (its
    /// slot, else beside the slots) rather than copied out first (issue 14:
    /// the bench's 20-field model decoded in 11.8k instructions, from 12.3k).
    @inline(__always)
    private func read<T>(_ key: Key, _ convert: (FieldValue) -> T?) -> T? {
        if let slot = slot(key) { return values.slots[slot].flatMap(convert) }
        return values.others.isEmpty ? nil : values.others[path(key)].flatMap(convert)
    }

    func contains(_ key: Key) -> Bool {
        if value(key) != nil { return true }
        let p = path(key)
        return rows[p] != nil || values.presentKeys.contains { $0.hasPrefix(p + ".") }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if let value = value(key) { return value == .null }
        let p = path(key)
        if rows[p] != nil { return false }
        return !values.presentKeys.contains { $0.hasPrefix(p + ".") }
    }

    private func decoder(_ key: Key) -> ValueDecoder {
        ValueDecoder(values: values, path: path(key), codingPath: codingPath + [key], rows: rows)
    }

    // The primitives read their value straight from its slot: going through
    // a nested decoder for each cost most of a session's load. Each converts
    // in place, as the single-value decoder does; a generic conversion here
    // was not specialized and looked up `Optional<T>`'s metadata per key.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if let b = read(key, { $0.decodedBool }) { return b }
        throw failure(key, type)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        // NULL is the empty text of a `String` that is no Optional, as a struct model sets it.
        if let s = read(key, { $0 == .null ? "" : $0.textValue }) { return s }
        throw failure(key, type)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        if let d = read(key, { $0.doubleValue }) { return d }
        throw failure(key, type)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        if let d = read(key, { $0.doubleValue }) { return Float(d) }
        throw failure(key, type)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key, type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key, type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key, type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key, type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key, type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key, type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key, type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key, type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key, type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key, type) }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ key: Key, _ type: T.Type) throws -> T {
        if let i = read(key, { $0.decodedInteger(type) }) { return i }
        throw failure(key, type)
    }

    // An optional primitive (`var age: Int?`) reads its slot once. The
    // standard library's `decodeIfPresent` asks `contains`, `decodeNil` and
    // `decode` in turn: three lookups of the key for every optional property.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key, type) { $0.decodedBool } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key, type) { $0.textValue } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key, type) { $0.doubleValue } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key, type) { $0.decodedInteger(type) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try present(key, type) { $0.decodedInteger(type) }
    }

    /// `key`'s value as `convert` reads it; nil for NULL or no value, as
    /// `decodeIfPresent` answers. A key kept nowhere is asked as the standard
    /// library would ask it (its nested keys may be present).
    @inline(__always)
    private func present<T>(_ key: Key, _ type: T.Type, _ convert: (FieldValue) -> T?) throws -> T? {
        guard let value = value(key) else {
            guard contains(key), try !decodeNil(forKey: key) else { return nil }
            throw failure(key, type)
        }
        if case .null = value { return nil }
        if let converted = convert(value) { return converted }
        throw failure(key, type)
    }

    /// Why a primitive key could not be read: it is missing, or its value
    /// (or its nested keys) is no `type`, said as the single-value decoder says it.
    private func failure<T>(_ key: Key, _ type: T.Type) -> DecodingError {
        let found = value(key)
        guard found != nil || contains(key) else {
            return DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \"\(path(key))\""))
        }
        return SingleDecoder(value: found, parentPath: codingPath, key: key).mismatch(type)
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

    func mismatch<T>(_ type: T.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath,
            debugDescription: "expected \(type), found \(value.map { "\($0)" } ?? "nothing")"))
    }

    func decodeNil() -> Bool { value == nil || value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard let b = value?.decodedBool else { throw mismatch(type) }
        return b
    }

    func decode(_ type: String.Type) throws -> String {
        guard let s = value?.textValue else { throw mismatch(type) }
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
        guard let exact = value?.decodedInteger(type) else { throw mismatch(type) }
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
        // A decimal kept as its digits (more than a double holds) is read from them, every one.
        case .text(let s) where T.self == Decimal.self && value?.isDecimalNumeral == true:
            result = Decimal(string: s.trimmingSpaces(), locale: nil)
        case .some(let v) where T.self == Decimal.self: result = v.doubleValue.map { Decimal($0) }
        default: result = nil
        }
        guard let typed = result as? T else { throw mismatch(type) }
        return typed
    }
}

/// How a decoder reads a primitive from a value, leniently where no
/// information is lost; the keyed and single-value decoders share it.
extension FieldValue {
    var decodedBool: Bool? {
        switch self {
        case .bool(let b): return b
        case .int(0): return false
        case .int(1): return true
        default: return nil
        }
    }

    @inline(__always)
    func decodedInteger<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        switch self {
        case .int(let i): return T(exactly: i)
        case .double: return intValue.flatMap { T(exactly: $0) }
        default: return nil
        }
    }
}
