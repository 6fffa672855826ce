import FoundationEssentials

/// Finds the coding key a key path reads, without any string in user code.
///
/// How: the model is decoded several times (`probeCount`) from a decoder that
/// invents a distinct value for every property it is asked for; each probe
/// instance is then encoded with `ModelCoder`, which tells which key holds
/// which value. Reading the key path on the same instances gives a sequence
/// of values that matches exactly one key's sequence. Booleans and enums have
/// few values, so each probe varies them by another digit of a per-property
/// counter — eight probes tell 256 booleans apart.
///
/// Limits: enum-typed properties must be `CaseIterable` (the probe cannot
/// invent raw values otherwise); a key path must end at a value, not at a
/// nested struct; a custom `init(from:)` that rejects values fails the probe.
enum KeyPathResolver {
    static let probeCount = 8

    struct Problem: Error, Hashable {
        let message: String
    }

    static func key<Model: Codable, Value: Encodable>(for keyPath: KeyPath<Model, Value>) -> Result<String, Problem> {
        var encoded: [[String: FieldValue]] = []
        var read: [FieldValue] = []
        do {
            for probe in 0..<probeCount {
                let instance = try Model(from: ProbeDecoder(state: ProbeState(probe: probe), codingPath: []))
                encoded.append(try ModelCoder.encode(instance))
                guard let value = try ModelCoder.encodeValue(instance[keyPath: keyPath]) else {
                    return .failure(Problem(message: "the key path ends at a nested structure; bind one of its properties"))
                }
                read.append(value)
            }
        } catch {
            return .failure(Problem(message: "cannot probe \(Model.self) for its keys: \(error)"))
        }
        let keys = encoded[0].keys.filter { key in encoded.indices.allSatisfy { encoded[$0][key] == read[$0] } }
        switch keys.count {
        case 1: return .success(keys[0])
        case 0: return .failure(Problem(message: "no coding key of \(Model.self) holds this property (computed, or left out of CodingKeys?)"))
        default: return .failure(Problem(message: "several coding keys match: \(keys.sorted().joined(separator: ", "))"))
        }
    }

    /// The instance probe number `probe` decodes (see the type's comment).
    static func probeInstance<Model: Decodable>(_ type: Model.Type, probe: Int) throws -> Model {
        try Model(from: ProbeDecoder(state: ProbeState(probe: probe), codingPath: []))
    }
}

private final class ProbeState {
    let probe: Int
    var counter = 0
    init(probe: Int) { self.probe = probe }

    /// The next property's number; the same property gets the same number in every probe.
    func next() -> Int {
        counter += 1
        return counter
    }

    /// Digit `probe` of `n` in `base`: varies finite types from probe to probe.
    func digit(_ n: Int, base: Int) -> Int {
        guard base > 1 else { return 0 }
        var value = n
        for _ in 0..<probe { value /= base }
        return value % base
    }

    func make<T>(_ type: T.Type) -> T? {
        let n = next()
        let wide = n * KeyPathResolver.probeCount + probe + 1
        let made: Any?
        switch type {
        case is String.Type: made = "\u{1}probe \(n)#\(probe)"
        case is Bool.Type: made = digit(n, base: 2) == 1
        case is Double.Type: made = Double(wide) + 0.25
        case is Float.Type: made = Float(wide) + 0.25
        case is Int.Type: made = Int(wide)
        case is Int8.Type: made = Int8(truncatingIfNeeded: wide)
        case is Int16.Type: made = Int16(truncatingIfNeeded: wide)
        case is Int32.Type: made = Int32(truncatingIfNeeded: wide)
        case is Int64.Type: made = Int64(wide)
        case is UInt.Type: made = UInt(wide)
        case is UInt8.Type: made = UInt8(truncatingIfNeeded: wide)
        case is UInt16.Type: made = UInt16(truncatingIfNeeded: wide)
        case is UInt32.Type: made = UInt32(truncatingIfNeeded: wide)
        case is UInt64.Type: made = UInt64(wide)
        case is Date.Type: made = Date(timeIntervalSinceReferenceDate: Double(wide))
        case is Data.Type: made = Data([UInt8(truncatingIfNeeded: n), UInt8(probe)])
        case is URL.Type: made = URL(string: "probe://\(n)/\(probe)")
        case is Decimal.Type: made = Decimal(wide)
        default:
            if let finite = type as? any CaseIterable.Type {
                let cases = allCases(of: finite)
                made = cases.isEmpty ? nil : cases[digit(n, base: cases.count)]
            } else {
                counter -= 1 // not a value: a structure, decoded through its own keys
                made = nil
            }
        }
        return made as? T
    }

    private func allCases<C: CaseIterable>(of type: C.Type) -> [Any] { Array(C.allCases) }
}

private struct ProbeDecoder: Decoder {
    let state: ProbeState
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyed<Key>(state: state, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ProbeList(state: state, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingle(state: state, codingPath: codingPath)
    }

    func make<T: Decodable>(_ type: T.Type) throws -> T {
        if let value = state.make(type) { return value }
        return try T(from: self)
    }
}

private struct ProbeKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: ProbeState
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ProbeDecoder(state: state, codingPath: codingPath + [key]).make(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(ProbeKeyed<NestedKey>(state: state, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        ProbeList(state: state, codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { ProbeDecoder(state: state, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(state: state, codingPath: codingPath + [key]) }
}

/// A list of one element, so that list properties get a distinct value too.
private struct ProbeList: UnkeyedDecodingContainer {
    let state: ProbeState
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex >= 1 }

    init(state: ProbeState, codingPath: [any CodingKey]) {
        self.state = state
        self.codingPath = codingPath
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try ProbeDecoder(state: state, codingPath: codingPath + [AnyCodingKey(intValue: 0)]).make(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return KeyedDecodingContainer(ProbeKeyed<NestedKey>(state: state, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return ProbeList(state: state, codingPath: codingPath)
    }

    mutating func superDecoder() throws -> any Decoder { ProbeDecoder(state: state, codingPath: codingPath) }
}

private struct ProbeSingle: SingleValueDecodingContainer {
    let state: ProbeState
    let codingPath: [any CodingKey]
    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ProbeDecoder(state: state, codingPath: codingPath).make(type)
    }
}
