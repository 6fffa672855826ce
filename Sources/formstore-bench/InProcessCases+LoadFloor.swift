import CSQLite

/// The floor of a load that hands back a `Decodable` model: the C read of the
/// row, with `Person` made by its synthesized `init(from:)` through the
/// smallest decoder there can be, one reading each key's column straight from
/// the statement. What this costs beyond `Person(row:)` is the standard
/// library's `Codable` machinery (its container box, generic metadata and one
/// call per key), which any load that decodes a model pays.
extension InProcessCases {
    func loadFloor(_ path: String) throws -> ResultRow {
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
        let paired = try interleaved(rounds: size.pick(smoke: 1, quick: 21, full: 41), baseline: {
            read { Person(row: $0) }
        }, subject: {
            try read { try Person(from: StatementDecoder(statement: $0)) }
        })
        return ResultRow("load floor: the C read decoded through Decodable", formstore: paired.subject * 1e6,
                         baseline: paired.baseline * 1e6, unit: "µs", goal: "–", met: nil,
                         note: "Person(from:) through a minimal decoder reading each key's column from the statement; "
                             + "what it adds to Person(row:) is Codable's own cost, paid by any load that decodes a model")
    }
}

/// A decoder over the current row of a statement of `Person.selectSQL`: a
/// key's column is the next one when keys come in the struct's order.
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
    final class Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let statement: RawStatement
        private var next: Int32 = 0
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { Person.columns.compactMap { Key(stringValue: $0.name) } }

        init(statement: RawStatement) { self.statement = statement }

        /// The column of `key`: the one after the last, else found by name.
        private func column(_ key: Key) throws -> Int32 {
            let names = Person.columns
            let name = key.stringValue
            let index: Int32
            if Int(next) < names.count, names[Int(next)].name == name {
                index = next
            } else if let found = names.firstIndex(where: { $0.name == name }) {
                index = Int32(found)
            } else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no column \(name)"))
            }
            next = index + 1
            return index
        }

        func contains(_ key: Key) -> Bool { Person.columns.contains { $0.name == key.stringValue } }
        func decodeNil(forKey key: Key) throws -> Bool { sqlite3_column_type(statement.pointer, try column(key)) == SQLITE_NULL }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { statement.text(try column(key)) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { sqlite3_column_int64(statement.pointer, try column(key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { sqlite3_column_double(statement.pointer, try column(key)) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { sqlite3_column_int64(statement.pointer, try column(key)) != 0 }

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
}
