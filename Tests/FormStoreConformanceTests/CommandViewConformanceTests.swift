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
            CREATE TRIGGER named_insert INSTEAD OF INSERT ON named
            BEGIN INSERT INTO staff VALUES (NEW.id, NEW.name, 'Acme'); END;
            CREATE TABLE loose (a INTEGER, b TEXT);
            INSERT INTO loose VALUES (1, 'x'), (1, 'x');
            """,
        postgres: """
            CREATE TABLE staff (id integer PRIMARY KEY, name text NOT NULL, company text);
            INSERT INTO staff VALUES (1, 'Boss', NULL), (2, 'Ann', 'Acme'), (3, 'Bob', 'Acme');
            CREATE VIEW named AS SELECT id, name FROM staff WHERE company IS NOT NULL;
            CREATE FUNCTION named_update() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN UPDATE staff SET name = NEW.name WHERE id = OLD.id; RETURN NEW; END $$;
            CREATE TRIGGER named_update INSTEAD OF UPDATE ON named FOR EACH ROW EXECUTE FUNCTION named_update();
            CREATE FUNCTION named_insert() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO staff VALUES (NEW.id, NEW.name, 'Acme'); RETURN NEW; END $$;
            CREATE TRIGGER named_insert INSTEAD OF INSERT ON named FOR EACH ROW EXECUTE FUNCTION named_insert();
            CREATE TABLE loose (a integer, b text);
            INSERT INTO loose VALUES (1, 'x'), (1, 'x');
            """)

    @Test(arguments: BackendKind.allCases)
    func aViewIsListedAndExported(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.schema)
        let db = ["--db", backend.location]
        let forms = try runBinary(db + ["forms"])
        #expect(forms.code == 0, "\(kind): \(forms)")
        // Said to be a view, on either backend.
        let sources = forms.output.split(separator: "\n").map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(sources.contains("named named view") && sources.contains("staff staff table"), "\(kind): \(forms)")
        let csv = try runBinary(db + ["export", "named", "--format", "csv"])
        #expect(csv.code == 0, "\(kind): \(csv)")
        #expect(csv.output == "id,name\r\n2,Ann\r\n3,Bob\r\n", "\(kind): \(csv)")
        let listed = try runBinary(db + ["list", "named", "--format", "ndjson", "--sort", "-name"])
        #expect(listed.code == 0, "\(kind): \(listed)")
        #expect(listed.output == "{\"id\": 3, \"name\": \"Bob\"}\n{\"id\": 2, \"name\": \"Ann\"}\n", "\(kind): \(listed)")
        // A table without a primary key is listed and exported too (PostgreSQL refused it).
        let loose = try runBinary(db + ["export", "loose", "--format", "csv"])
        // (SQLite finds its rows by rowid, which it writes; PostgreSQL has none to give.)
        let looseRows = kind == .sqlite ? "rowid,a,b\r\n1,1,x\r\n2,1,x\r\n" : "a,b\r\n1,x\r\n1,x\r\n"
        #expect(loose.code == 0 && loose.output == looseRows, "\(kind): \(loose)")
        #expect(try runBinary(db + ["list", "loose"]).code == 0, "\(kind)")
        if kind == .postgres {
            // A PostgreSQL table has no rowid to speak of (the message spoke of SQLite's).
            let shown = try runBinary(db + ["show", "loose", "1"])
            #expect(shown.code == 64, "\(shown)")
            #expect(shown.errors.hasPrefix("Error: 'loose' has no primary key to find records by: list and export read it; "
                    + "a spec may name key columns as primaryKey\nUsage: "), "\(shown)")
        }
        // Without a spec naming its key, a record of a view cannot be found.
        for command in ["show", "history", "edit"] {
            let shown = try runBinary(db + [command, "named", "2"])
            #expect(shown.code == 64, "\(kind): \(shown)")
            #expect(shown.errors.hasPrefix("Error: 'named' has no primary key to find records by: list and export read it; "
                    + "a spec may name key columns as primaryKey\nUsage: "), "\(kind): \(shown)")
        }
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
        // The view has no INSTEAD OF DELETE trigger. SQLite refuses, and the
        // message says why; PostgreSQL deletes through a view of one table
        // (its views of one table are updatable without triggers).
        let deleted = try runBinary(db + ["delete", "named", "3", "--yes"])
        switch kind {
        case .sqlite:
            #expect(deleted.code == 65, "\(kind): \(deleted)")
            #expect(deleted.errors == "formstore: 'named' is a view, and it has no INSTEAD OF trigger for this change "
                    + "(INSERT for new records, UPDATE for set, DELETE for delete); nothing was changed\n")
            #expect(try backend.row("SELECT count(*) FROM staff") == ["3"])
        case .postgres:
            #expect(deleted.code == 0, "\(kind): \(deleted)")
            #expect(try backend.row("SELECT count(*) FROM staff") == ["2"])
        }
    }

    /// A write a trigger drops without an error (SQLite's `RAISE(IGNORE)`, a
    /// PostgreSQL `BEFORE` trigger returning NULL) is refused by name on both
    /// backends, and nothing is written: `set` said it saved, and `delete`
    /// said the record it could see was not there (exit 66).
    @Test(arguments: BackendKind.allCases)
    func aWriteATriggerDropsIsSaid(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Schema(
            sqlite: """
                CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);
                INSERT INTO t VALUES (1, 'a');
                CREATE TRIGGER skip_update BEFORE UPDATE ON t WHEN NEW.name = 'skip' BEGIN SELECT RAISE(IGNORE); END;
                CREATE TRIGGER keep BEFORE DELETE ON t BEGIN SELECT RAISE(IGNORE); END;
                """,
            postgres: """
                CREATE TABLE t (id integer PRIMARY KEY, name text);
                INSERT INTO t VALUES (1, 'a');
                CREATE FUNCTION skip() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF TG_OP = 'DELETE' OR NEW.name = 'skip' THEN RETURN NULL; END IF; RETURN NEW; END $$;
                CREATE TRIGGER skip BEFORE UPDATE OR DELETE ON t FOR EACH ROW EXECUTE FUNCTION skip();
                """))
        let db = ["--db", backend.location]
        let set = try runBinary(db + ["set", "t", "1", "name=skip"])
        #expect(set.code == 65 && set.errors.contains("a trigger on 't' ignored the update"), "\(kind): \(set)")
        let deleted = try runBinary(db + ["delete", "t", "1", "--yes"])
        #expect(deleted.code == 65 && deleted.errors.contains("a trigger on 't' ignored the delete"), "\(kind): \(deleted)")
        #expect(try backend.row("SELECT name FROM t WHERE id = 1") == ["a"])
        #expect(try runBinary(db + ["delete", "t", "2", "--yes"]).code == 66, "\(kind)")
    }

    /// Without a spec, a view's record is written through its INSTEAD OF
    /// INSERT trigger; with no key to read it back by, it is shown as written.
    @Test(arguments: BackendKind.allCases)
    func aNewRecordGoesThroughTheViewsInsertTrigger(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.schema)
        let created = try runBinary(["--db", backend.location, "new", "named", "id=4", "name=Cy"])
        #expect(created.code == 0, "\(kind): \(created)")
        #expect(created.output.contains("Cy"), "\(kind): \(created)")
        #expect(created.errors == "Created a record of named.\n", "\(kind): \(created)")
        #expect(try backend.row("SELECT name, company FROM staff WHERE id = 4") == ["Cy", "Acme"])
    }

    /// A new record through PostgreSQL's automatically updatable view: a
    /// field not given is left out, so the table's default fills it (the
    /// serial key). Before, it was sent as NULL and the key was refused.
    @Test func aNewRecordThroughAnUpdatableViewTakesTheTablesDefaults() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE goods (id serial PRIMARY KEY, name text, price numeric DEFAULT 1);
            CREATE VIEW cheap AS SELECT id, name, price FROM goods WHERE price < 2000;
            """))
        let made = try runBinary(["--db", backend.location, "new", "cheap", "name=tea"])
        #expect(made.code == 0, "\(made)")
        #expect(try backend.row("SELECT id, name, price FROM goods") == ["1", "tea", "1"])
    }

    /// A write a PostgreSQL view cannot take (a view of a join, an
    /// aggregate's column) is refused as a value is (exit 65), saying so;
    /// it was "PostgreSQL error 55000: …" with exit 1.
    @Test func aViewPostgreSQLCannotWriteRefusesTheWrite() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE goods (id integer PRIMARY KEY, name text);
            INSERT INTO goods VALUES (1, 'tea');
            CREATE VIEW counted AS SELECT name, count(*) AS n FROM goods GROUP BY name;
            """))
        let made = try runBinary(["--db", backend.location, "new", "counted", "name=x"])
        #expect(made.code == 65, "\(made)")
        #expect(made.errors.hasPrefix("formstore: PostgreSQL cannot write this: "), "\(made)")
        #expect(try backend.row("SELECT count(*) FROM goods") == ["1"])
    }
}
