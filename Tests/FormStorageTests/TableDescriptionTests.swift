import FormStorage
import Testing

/// A connection describes a table once per schema version
/// (`Connection.tableInfo(_:)`): what it tells must still follow every change.
@Suite struct TableDescriptionTests {
    struct Stop: Error {}

    let conn: Connection

    init() throws {
        conn = try Connection(path: ":memory:")
        try conn.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT)")
    }

    private func columns() throws -> [String] {
        try conn.tableInfo("people").columns.map(\.name)
    }

    @Test func aChangedTableIsDescribedAgain() throws {
        #expect(try columns() == ["id", "name"])
        try conn.execute("ALTER TABLE people ADD COLUMN email TEXT")
        #expect(try columns() == ["id", "name", "email"])
        try conn.execute("CREATE TABLE pets (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES people(id))")
        #expect(try conn.tableInfo("pets").foreignKeys.map(\.destinationTable) == ["people"])
    }

    /// A rollback takes the schema version back; the next change reaches the
    /// same number with another schema, and must not be answered from before.
    @Test func aRolledBackChangeIsForgotten() throws {
        #expect(try columns() == ["id", "name"])
        #expect(throws: Stop.self) {
            try conn.transaction {
                try conn.execute("ALTER TABLE people ADD COLUMN discarded TEXT")
                #expect(try columns() == ["id", "name", "discarded"])
                throw Stop()
            }
        }
        #expect(try columns() == ["id", "name"])
        try conn.transaction { try conn.execute("ALTER TABLE people ADD COLUMN kept TEXT") }
        #expect(try columns() == ["id", "name", "kept"])
    }

    /// The same, when the rolled-back change was inside a savepoint.
    @Test func aChangeRolledBackToASavepointIsForgotten() throws {
        try conn.transaction {
            #expect(throws: Stop.self) {
                try conn.transaction {
                    try conn.execute("ALTER TABLE people ADD COLUMN discarded TEXT")
                    #expect(try columns() == ["id", "name", "discarded"])
                    throw Stop()
                }
            }
            try conn.execute("ALTER TABLE people ADD COLUMN kept TEXT")
            #expect(try columns() == ["id", "name", "kept"])
        }
    }
}
