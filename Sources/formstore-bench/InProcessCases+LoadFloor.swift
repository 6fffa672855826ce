import CSQLite
import FormCore

/// The floors of a load that hands back a `Decodable` model, each the C read
/// of the row with `Person` made another way, against `Person(row:)`:
///
/// - **Codable**: by its synthesized `init(from:)` through the smallest
///   decoder there can be, one reading each key's column straight from the
///   statement. What this adds is the standard library's `Codable` machinery
///   (its container box, generic metadata and one call per key), which any
///   load that decodes a model pays.
/// - **kept values**: the row read into one `FieldValue` per column, held by
///   an object past the read (as anything that tracks changes must keep
///   what it loaded), and `Person` decoded from those values. What
///   FormStore's load costs beyond this is its own plumbing: the store's
///   statement cache and reader pool, the form's layout, the session's state.
extension InProcessCases {
    func loadFloor(_ path: String) throws -> ResultRow {
        let paired = try floorPaired(path) { try Person(from: StatementDecoder(statement: $0)) }
        return ResultRow("load floor: the C read decoded through Decodable", formstore: paired.subject * 1e6,
                         baseline: paired.baseline * 1e6, unit: "µs", goal: "–", met: nil,
                         note: "Person(from:) through a minimal decoder reading each key's column from the statement; "
                             + "what it adds to Person(row:) is Codable's own cost, paid by any load that decodes a model")
    }

    func loadKeptFloor(_ path: String) throws -> ResultRow {
        let paired = try floorPaired(path) { statement in
            let kept = KeptRow(statement)
            defer { blackHole(kept) }
            return try Person(from: KeptRowDecoder(row: kept))
        }
        return ResultRow("load floor: the C read kept as values, decoded through Decodable",
                         formstore: paired.subject * 1e6, baseline: paired.baseline * 1e6, unit: "µs", goal: "–",
                         met: nil, note: "the row read into one FieldValue per column held by an object, "
                             + "Person(from:) decoded from those values by a minimal decoder: what any load "
                             + "into something that tracks changes does")
    }

    /// One row read by key per turn, `Person(row:)` against `make`, alternated round by round.
    private func floorPaired(_ path: String, _ make: (RawStatement) throws -> Person) throws -> Paired {
        let raw = try RawConnection(path: path)
        let select = try raw.prepare(Person.selectSQL)
        let perRound = size.pick(smoke: 1, quick: 500, full: 2000)
        var next = 0
        func read(_ make: (RawStatement) throws -> Person) rethrows -> Double {
            try seconds {
                for _ in 0..<perRound {
                    next = next % rowCount + 1
                    sqlite3_bind_int64(select.pointer, 1, Int64(next))
                    guard sqlite3_step(select.pointer) == SQLITE_ROW else { fatalError("no row") }
                    blackHole(try make(select))
                    sqlite3_reset(select.pointer)
                }
            } / Double(perRound)
        }
        return try interleaved(rounds: size.pick(smoke: 1, quick: 21, full: 41), baseline: {
            read { Person(row: $0) }
        }, subject: {
            try read(make)
        })
    }
}

extension Person {
    /// The position of the column named `key` in `selectSQL`: `next` when the
    /// keys come in the struct's order (one comparison), else found by name.
    static func column<Key: CodingKey>(of key: Key, expected next: Int) throws -> Int {
        let name = key.stringValue
        if next < columns.count, columns[next].name == name { return next }
        guard let found = columns.firstIndex(where: { $0.name == name }) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no column \(name)"))
        }
        return found
    }
}

/// A decoder over the current row of a statement of `Person.selectSQL`.
struct StatementDecoder: Decoder {
    let statement: RawStatement
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns<Key>(statement: statement))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw BenchError("a row is not a list") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw BenchError("a row is not one value") }

    /// A class, for the column cursor that the container's non-mutating calls move.
    final class Columns<Key: CodingKey>: PersonContainer {
        let statement: RawStatement
        var next = 0

        init(statement: RawStatement) { self.statement = statement }

        private func column(_ key: Key) throws -> Int32 {
            let index = try Person.column(of: key, expected: next)
            next = index + 1
            return Int32(index)
        }

        func decodeNil(forKey key: Key) throws -> Bool { sqlite3_column_type(statement.pointer, try column(key)) == SQLITE_NULL }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { statement.text(try column(key)) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { sqlite3_column_int64(statement.pointer, try column(key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { sqlite3_column_double(statement.pointer, try column(key)) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { sqlite3_column_int64(statement.pointer, try column(key)) != 0 }
    }
}

/// A row's values kept past the read, one per column.
final class KeptRow {
    let values: [FieldValue]

    init(_ statement: RawStatement) {
        let p = statement.pointer
        var values: [FieldValue] = []
        values.reserveCapacity(Person.columns.count)
        for column in 0..<sqlite3_column_count(p) {
            switch sqlite3_column_type(p, column) {
            case SQLITE_INTEGER: values.append(.int(sqlite3_column_int64(p, column)))
            case SQLITE_FLOAT: values.append(.double(sqlite3_column_double(p, column)))
            case SQLITE_NULL: values.append(.null)
            default: values.append(.text(statement.text(column)))
            }
        }
        self.values = values
    }
}

/// A decoder over a kept row of `Person.selectSQL`.
struct KeptRowDecoder: Decoder {
    let row: KeptRow
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Values<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw BenchError("a row is not a list") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw BenchError("a row is not one value") }

    final class Values<Key: CodingKey>: PersonContainer {
        let row: KeptRow
        var next = 0

        init(row: KeptRow) { self.row = row }

        private func value(_ key: Key) throws -> FieldValue {
            let index = try Person.column(of: key, expected: next)
            next = index + 1
            return row.values[index]
        }

        private func mismatch<T>(_ type: T.Type, _ key: Key) -> DecodingError {
            DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "not a \(type)"))
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            guard case .text(let s) = try value(key) else { throw mismatch(type, key) }
            return s
        }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            guard case .int(let i) = try value(key) else { throw mismatch(type, key) }
            return i
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            guard case .double(let d) = try value(key) else { throw mismatch(type, key) }
            return d
        }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            guard case .int(let i) = try value(key) else { throw mismatch(type, key) }
            return i != 0
        }
    }
}

/// What both floors' keyed containers answer alike: `Person`'s keys, and
/// no nested values, lists or superclass.
protocol PersonContainer: KeyedDecodingContainerProtocol {}

extension PersonContainer {
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { Person.columns.compactMap { Key(stringValue: $0.name) } }
    func contains(_ key: Key) -> Bool { Person.columns.contains { $0.name == key.stringValue } }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "not a column of Person"))
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> { throw BenchError("Person has no nested values") }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw BenchError("Person has no lists")
    }
    func superDecoder() throws -> any Decoder { throw BenchError("Person has no superclass") }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw BenchError("Person has no superclass") }
}
