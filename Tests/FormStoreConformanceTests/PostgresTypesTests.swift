import FormBasics
import FormCore
import FormStorage
import FormStoragePostgres
import FormStoreTestSupport
import Foundation
import Testing

/// What only PostgreSQL has: its own types read and written in their own
/// form, `pg_catalog` introspection, SQLSTATE errors, and FormStore's own
/// migrations with the checksums they have on SQLite.
@Suite struct PostgresTypesTests {
    static let schema = Schema(sqlite: "", postgres: """
        CREATE TYPE mood AS ENUM ('calm', 'busy');
        CREATE TABLE owners (id integer PRIMARY KEY);
        INSERT INTO owners VALUES (1);
        CREATE TABLE things (
            id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
            n numeric(10,3) CHECK (n >= 0),
            at timestamptz, d date, tags text[], doc jsonb, raw bytea, mood mood, flag boolean,
            owner integer REFERENCES owners (id),
            code text UNIQUE,
            twice numeric GENERATED ALWAYS AS (n * 2) STORED);
        INSERT INTO things (n, at, d, tags, doc, raw, mood, flag, owner, code) VALUES
            (12.5, '2024-05-01 13:04:05.25+02', '1999-12-31', '{"a","b c","d\\"e"}', '{"k": [1, 2]}',
             '\\x00ff10', 'busy', true, 1, 'first');
        """)

    static var form: Form {
        var form = Form(name: "thing", sections: [Section(fields: [
            Field(key: "n", label: "N", kind: .decimal),
            Field(key: "at", label: "At", kind: .datetime),
            Field(key: "d", label: "D", kind: .date),
            Field(key: "tags", label: "Tags", kind: .multichoice),
            Field(key: "doc", label: "Doc", kind: .multiline),
            Field(key: "raw", label: "Raw", kind: .text),
            Field(key: "mood", label: "Mood", kind: .text),
            Field(key: "flag", label: "Flag", kind: .bool),
            Field(key: "owner", label: "Owner", kind: .integer),
            Field(key: "code", label: "Code", kind: .text),
        ])])
        form.table = "things"
        return form
    }

    static let columns = "n, at, d, tags, doc, raw, mood, flag, owner"

    func first(_ backend: TestBackend) throws -> StoredRecord {
        let id = try #require(try backend.row("SELECT id FROM things WHERE code = 'first'")?.first ?? nil)
        return try #require(try backend.store.load(Self.form, key: RecordKey("id", .text(id))))
    }

    @Test func eachTypeReadsAsItsModelValue() throws {
        let backend = try TestBackend(.postgres, schema: Self.schema)
        let values = try first(backend).values
        #expect(values["n"] == 12.5)
        #expect(values["at"] == .date(ISO8601.parseDateTime("2024-05-01T11:04:05.250Z")!))
        #expect(values["d"] == .date(ISO8601.parseDate("1999-12-31")!))
        #expect(values["tags"] == .list(["a", "b c", "d\"e"]))
        #expect(values["doc"] == #"{"k": [1, 2]}"#)
        #expect(values["raw"] == .data(Data([0x00, 0xff, 0x10])))
        #expect(values["mood"] == "busy")
        #expect(values["flag"] == true)
    }

    @Test func exportThenImportIsTheIdentity() throws {
        let backend = try TestBackend(.postgres, schema: Self.schema)
        var values = try first(backend).values
        values["id"] = nil
        values["code"] = "copy"
        _ = try backend.store.insert(Self.form, values: values, deletingDraft: nil)
        let original = try backend.row("SELECT \(Self.columns) FROM things WHERE code = 'first'")
        let copy = try backend.row("SELECT \(Self.columns) FROM things WHERE code = 'copy'")
        #expect(copy != nil)
        #expect(copy == original)
    }

    /// Timestamps and times keep the microseconds PostgreSQL keeps: typed,
    /// found by key, and matched by a filter (they were cut to milliseconds).
    @Test func microsecondsAreKept() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE rt (at timestamptz PRIMARY KEY, ts timestamp, t time);
            INSERT INTO rt VALUES ('2024-05-01 11:04:05.123456+02', '2024-05-01 11:04:05.000001', '23:59:59.999999');
            """))
        let db = ["--db", backend.location]
        let shown = try runBinary(db + ["show", "rt", "2024-05-01 09:04:05.123456Z", "--format", "json"])
        #expect(shown.code == 0, "\(shown)")
        let found = try runBinary(db + ["list", "rt", "--where", "ts=2024-05-01 11:04:05.000001", "--format", "csv"])
        #expect(found.output.split(separator: "\r\n").count == 2, "\(found)")
        let set = try runBinary(db + ["set", "rt", "2024-05-01 09:04:05.123456Z", "ts=2024-01-01T00:00:00.654321", "t=12:34:56.789"])
        #expect(set.code == 0, "\(set)")
        #expect(try backend.row("SELECT ts::text, t::text FROM rt") == ["2024-01-01 00:00:00.654321", "12:34:56.789"])
    }

    @Test func catalogDescribesTypesKeysDefaultsAndGeneratedColumns() throws {
        let backend = try TestBackend(.postgres, schema: Self.schema)
        let store = try #require(backend.store as? PostgresFormStore)
        let table = try #require(try store.table("things"))
        #expect(table.primaryKey == ["id"])
        #expect(table.column("id")?.defaultSQL == "gen_random_uuid()")
        #expect(table.column("mood")?.enumLabels == ["calm", "busy"])
        #expect(table.column("tags")?.elementTypeName == "text")
        #expect(table.column("twice")?.isGenerated == true)
        #expect(table.column("doc")?.typeName == "jsonb")
        #expect(try store.tableNames() == ["owners", "things"])
        #expect(try store.table("nothing") == nil)
    }

    @Test func constraintFailuresCarryTheirSQLState() throws {
        let backend = try TestBackend(.postgres, schema: Self.schema)
        let store = backend.store
        let check = #expect(throws: PostgresError.self) {
            _ = try store.insert(Self.form, values: ["n": -1.0], deletingDraft: nil)
        }
        #expect(check?.isCheckViolation == true)
        let unique = #expect(throws: PostgresError.self) {
            _ = try store.insert(Self.form, values: ["code": "first"], deletingDraft: nil)
        }
        #expect(unique?.isUniqueViolation == true)
        #expect(unique?.constraint == "things_code_key")
        // A foreign key's refusal names the field, the table and the value, as SQLite's store does.
        let foreign = #expect(throws: FormStoreError.self) {
            _ = try store.insert(Self.form, values: ["owner": 9], deletingDraft: nil)
        }
        #expect(foreign?.reason == .missingReference && foreign?.field == "owner")
        #expect(foreign?.message == "owner: no row of 'owners' has id = 9")
        #expect(try backend.count("SELECT count(*) FROM things") == 1)
    }

    @Test func anUnreachableServerIsAConnectionErrorThatKeepsThePasswordOut() throws {
        let error = #expect(throws: PostgresError.self) {
            _ = try PostgresFormStore(url: "postgresql://someone:hunter2@/app?host=/nonexistent-formstore-dir")
        }
        #expect(error?.isConnectionLost == true)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test func formStoresOwnMigrationsHaveTheChecksumsTheyHaveOnSQLite() throws {
        let backend = try TestBackend(.postgres, schema: Self.schema)
        let applied = try backend.row("SELECT string_agg(checksum, ',' ORDER BY id) FROM formstore_migrations")?.first ?? nil
        #expect(applied == (try Migrator.formStore.migrations()).map(\.checksum).joined(separator: ","))
        // Opening again applies nothing.
        let pool = try PostgresPool(url: backend.location)
        #expect(try PostgresMigrator.formStore.migrate(pool).isEmpty)
    }
}
