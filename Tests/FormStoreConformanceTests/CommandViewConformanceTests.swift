import FormStoreTestSupport
import Foundation
import Testing

/// Views as forms on both backends, through the built binary: listed by
/// `forms`, read by `list` and `export`; `show` and `set` need a spec naming
/// the view's key, and write through the view's `INSTEAD OF` trigger.
@Suite struct CommandViewConformanceTests {
    static let schema = Schema(
        sqlite: """
            CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT NOT NULL, company TEXT);
            INSERT INTO staff VALUES (1, 'Boss', NULL), (2, 'Ann', 'Acme'), (3, 'Bob', 'Acme');
            CREATE VIEW named AS SELECT id, name FROM staff WHERE company IS NOT NULL;
            CREATE TRIGGER named_update INSTEAD OF UPDATE ON named
            BEGIN UPDATE staff SET name = NEW.name WHERE id = OLD.id; END;
            """,
        postgres: """
            CREATE TABLE staff (id integer PRIMARY KEY, name text NOT NULL, company text);
            INSERT INTO staff VALUES (1, 'Boss', NULL), (2, 'Ann', 'Acme'), (3, 'Bob', 'Acme');
            CREATE VIEW named AS SELECT id, name FROM staff WHERE company IS NOT NULL;
            CREATE FUNCTION named_update() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN UPDATE staff SET name = NEW.name WHERE id = OLD.id; RETURN NEW; END $$;
            CREATE TRIGGER named_update INSTEAD OF UPDATE ON named FOR EACH ROW EXECUTE FUNCTION named_update();
            """)

    @Test(arguments: BackendKind.allCases)
    func aViewIsListedAndExported(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.schema)
        let db = ["--db", backend.location]
        let forms = try runBinary(db + ["forms"])
        #expect(forms.code == 0, "\(kind): \(forms)")
        #expect(forms.output.contains("named"), "\(kind): \(forms)")
        let csv = try runBinary(db + ["export", "named", "--format", "csv"])
        #expect(csv.code == 0, "\(kind): \(csv)")
        #expect(csv.output == "id,name\r\n2,Ann\r\n3,Bob\r\n", "\(kind): \(csv)")
        let listed = try runBinary(db + ["list", "named", "--format", "ndjson", "--sort", "-name"])
        #expect(listed.code == 0, "\(kind): \(listed)")
        #expect(listed.output == "{\"id\": 3, \"name\": \"Bob\"}\n{\"id\": 2, \"name\": \"Ann\"}\n", "\(kind): \(listed)")
        // Without a spec naming its key, a record of a view cannot be found.
        let shown = try runBinary(db + ["show", "named", "2"])
        #expect(shown.code == 64, "\(kind): \(shown)")
        #expect(shown.errors.hasPrefix("Error: The key has 0 columns"), "\(kind): \(shown)")
    }

    @Test(arguments: BackendKind.allCases)
    func aSpecNamingTheKeyShowsAndWritesThroughTheView(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.schema)
        let forms = FileManager.default.temporaryDirectory.appendingPathComponent("view-forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: forms, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: forms) }
        try Data(#"""
            {"formstore": 1, "name": "named", "table": "named", "primaryKey": ["id"],
             "sections": [{"fields": [{"key": "name", "label": "Name"}]}]}
            """#.utf8).write(to: forms.appendingPathComponent("named.json"))
        let db = ["--db", backend.location, "--forms", forms.path]
        let shown = try runBinary(db + ["show", "named", "2"])
        #expect(shown.code == 0, "\(kind): \(shown)")
        #expect(shown.output.contains("Name: Ann"), "\(kind): \(shown)")
        let set = try runBinary(db + ["set", "named", "2", "name=Annie"])
        #expect(set.code == 0, "\(kind): \(set)")
        #expect(try backend.row("SELECT name FROM staff WHERE id = 2") == ["Annie"])
    }
}
