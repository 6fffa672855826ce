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

    static let selfReferring = Schema(
        sqlite: """
            CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, manager_id INTEGER REFERENCES emp(id));
            INSERT INTO emp VALUES (4, 'Zoë', 4), (5, 'Max', 5), (6, 'Ida', 5), (7, 'Cy', NULL);
            """,
        postgres: """
            CREATE TABLE emp (id integer PRIMARY KEY, name text, manager_id integer REFERENCES emp(id));
            INSERT INTO emp VALUES (4, 'Zoë', 4), (5, 'Max', 5), (6, 'Ida', 5), (7, 'Cy', NULL);
            """)

    /// A row referring to itself (its own manager) is no other record: it
    /// goes with the delete, which the database allows, so it holds nothing
    /// back; another row of the same table referring to it still does.
    @Test(arguments: BackendKind.allCases)
    func aRowReferringToItselfDoesNotHoldItBack(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.selfReferring)
        let store = try #require(backend.store as? any RecordStore)
        let form = try #require(try store.inferredForm(table: "emp"))
        #expect(try store.referrers(of: form, key: RecordKey("id", .int(4))).isEmpty, "\(kind)")
        #expect(try store.referrers(of: form, key: RecordKey("id", .int(5))) == ["emp.manager_id"], "\(kind)")
        #expect(try store.referrers(of: form, key: RecordKey("id", .int(7))).isEmpty, "\(kind)")
        // The database agrees: the row that refers only to itself goes.
        try backend.execute("DELETE FROM emp WHERE id = 4")
        #expect(try backend.count("SELECT count(*) FROM emp") == 3, "\(kind)")
    }
}
