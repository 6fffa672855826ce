import FormCore
import FormStorage
import Testing

/// What holds a record back from deletion, on both backends: only the keys
/// under which some row refers to that record (the web's delete page offers
/// no Delete for a record held back, so naming every key held back all).
@Suite struct ReferrerConformanceTests {
    static let schema = Schema(
        sqlite: """
            CREATE TABLE lone (id INTEGER PRIMARY KEY);
            CREATE TABLE refs_lone (id INTEGER PRIMARY KEY, lone_id INTEGER REFERENCES lone(id));
            INSERT INTO lone VALUES (1), (2);
            INSERT INTO refs_lone VALUES (1, 1);
            """,
        postgres: """
            CREATE TABLE lone (id integer PRIMARY KEY);
            CREATE TABLE refs_lone (id integer PRIMARY KEY, lone_id integer REFERENCES lone(id));
            INSERT INTO lone VALUES (1), (2);
            INSERT INTO refs_lone VALUES (1, 1);
            """)

    @Test(arguments: BackendKind.allCases)
    func onlyRowsThatReferToTheRecordHoldItBack(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.schema)
        let store = try #require(backend.store as? any RecordStore)
        let form = try #require(try store.inferredForm(table: "lone"))
        #expect(try store.referrers(of: form, key: RecordKey("id", .int(1))) == ["refs_lone.lone_id"], "\(kind)")
        #expect(try store.referrers(of: form, key: RecordKey("id", .int(2))).isEmpty, "\(kind)")
    }
}
