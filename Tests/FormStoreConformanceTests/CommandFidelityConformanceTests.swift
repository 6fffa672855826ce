import FormStoreTestSupport
import Foundation
import Testing

/// Export then import is the identity through the command, on both backends:
/// every column as the database holds it (PostgreSQL: its own type, to the
/// microsecond and the trailing zero), into a fresh copy of the schema, and an
/// unchanged export imported again changes nothing: arrays with commas,
/// NULLs and empty elements, and floats that are no number (NaN, ±Infinity) too.
@Suite struct CommandFidelityConformanceTests {
    static let schema = Schema(
        sqlite: """
            CREATE TABLE things (id INTEGER PRIMARY KEY, n NUMERIC, at TEXT, d DATE, doc TEXT, raw BLOB,
                flag BOOLEAN, note TEXT, big INTEGER, ratio REAL, tags TEXT, wild REAL);
            INSERT INTO things VALUES
                (1, 12.5, '2024-05-01 13:04:05.250', '1999-12-31', '{"k": [1, 2]}', x'00ff10', 1, '  spaced  ', 9007199254740993, 0.1,
                 '{"a,b",NULL}', 9e999),
                (2, NULL, '2024-05-01T10:00:00Z', NULL, NULL, x'', 0, '', -9223372036854775808, 1e-300, '{}', -9e999),
                (3, 7, NULL, '2016-07-04', '[]', NULL, NULL, 'line one' || char(10) || 'line two', 0, -2.5, NULL, NULL);
            """,
        postgres: """
            CREATE TABLE things (id integer PRIMARY KEY, n numeric(10,3), at timestamptz, d date, doc jsonb, raw bytea,
                flag boolean, note text, big bigint, ratio double precision, tags text[], wild real, ints integer[]);
            INSERT INTO things VALUES
                (1, 12.5, '2024-05-01 13:04:05.123456+02', '1999-12-31', '{"k": [1, 2]}', '\\x00ff10', true, '  spaced  ',
                 9007199254740993, 0.1, '{"a,b","c\\"d",NULL,"NULL",""}', 'NaN', '{1,2,NULL}'),
                (2, NULL, '2024-05-01 10:00:00+00', NULL, NULL, '\\x', false, '', -9223372036854775808, 1e-300, '{}', 'Infinity',
                 '{5}'),
                (3, 7, NULL, '2016-07-04', '[]', NULL, NULL, E'line one\\nline two', 0, -2.5, NULL, '-Infinity', NULL);
            """)

    @Test(arguments: BackendKind.allCases, ["json", "ndjson", "csv"])
    func exportThenImportIsTheIdentity(_ kind: BackendKind, _ format: String) throws {
        let source = try TestBackend(kind, schema: Self.schema)
        let copy = try TestBackend(kind, schema: Schema(sqlite: Self.schema.sqlite.components(separatedBy: "INSERT")[0],
                                                        postgres: Self.schema.postgres.components(separatedBy: "INSERT")[0]))
        let csv = format == "csv" ? ["--raw-csv"] : []
        let exported = try runBinary(["--db", source.location, "export", "things", "--format", format] + csv)
        #expect(exported.code == 0, "\(exported)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("things-\(UUID().uuidString).\(format)")
        try exported.output.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let imported = try runBinary(["--db", copy.location, "import", "things", file.path, "--format", format])
        #expect(imported.code == 0, "\(kind) \(format): \(imported)")
        let again = try runBinary(["--db", copy.location, "export", "things", "--format", format] + csv)
        #expect(again.output == exported.output, "\(kind) \(format)")
        let unchanged = try runBinary(["--db", source.location, "import", "things", file.path, "--format", format])
        #expect(unchanged.code == 0, "\(unchanged)")
        #expect((unchanged.output + unchanged.errors).contains("0 new, 0 updated, 3 unchanged"), "\(kind) \(format): \(unchanged)")
        // Row by row, as the database's own client reads them.
        let rows = kind == .postgres ? "SELECT string_agg(t::text, '|' ORDER BY id) FROM things t"
            : "SELECT group_concat(quote(id) || quote(n) || quote(at) || quote(d) || quote(doc) || quote(raw) || quote(flag) "
              + "|| quote(note) || quote(big) || quote(ratio) || quote(tags) || quote(wild), '|') FROM (SELECT * FROM things ORDER BY id)"
        #expect(try copy.row(rows) == source.row(rows), "\(kind) \(format)")
    }
}
