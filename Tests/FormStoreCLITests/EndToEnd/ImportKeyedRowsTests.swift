import FormStoreTestSupport
import Foundation
import Testing

/// Rows carrying their keys, into tables without triggers, where `import`
/// leaves a new row's key to the INSERT (`ON CONFLICT (key) DO NOTHING`) and
/// looks up only a key that turns out to be stored: the outcome is the one a
/// lookup per row gave (`ImportKeysTests`, whose table has triggers).
@Suite struct ImportKeyedRowsTests {
    static let items = """
        CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, added TEXT);
        INSERT INTO items VALUES (1, 'Tea', 3.5, '2024-01-01'), (2, 'Cake', 4.25, '2024-01-02 10:00:00');
        """

    @Test func newAndStoredKeysMixedInOneFile() throws {
        let demo = try DemoDatabase(sql: Self.items)
        let run = try demo.run(["import", "items"], stdin: """
            {"id": 5, "name": "Bun", "price": 1.25, "added": "2024-02-01"}
            {"id": 1, "name": "Tea", "price": 3.75, "added": "2024-01-01"}
            {"id": 6, "name": "Pie", "price": 2, "added": null}
            {"id": 2, "name": "Cake", "price": 4.25, "added": "2024-01-02 10:00:00"}
            {"id": 7, "name": "Jam"}

            """)
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Imported 5 row(s): 3 new, 1 updated, 1 unchanged.\n")
        #expect(try demo.query("SELECT id, name, price, quote(added) FROM items ORDER BY id") == """
            1|Tea|3.75|'2024-01-01'
            2|Cake|4.25|'2024-01-02 10:00:00'
            5|Bun|1.25|'2024-02-01'
            6|Pie|2.0|NULL
            7|Jam||NULL

            """)
    }

    @Test func aStoredRowGivingSomeColumnsIsAnUpdateThoughItCouldNotBeInserted() throws {
        let demo = try DemoDatabase(sql: Self.items)
        // As a new row it lacks the NOT NULL name; its key is stored, so it changes the price alone.
        let run = try demo.run(["import", "items"], stdin: "{\"id\": 9, \"name\": \"Bun\"}\n{\"id\": 1, \"price\": 9}\n")
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Imported 2 row(s): 1 new, 1 updated, 0 unchanged.\n")
        #expect(try demo.query("SELECT id, name, price FROM items ORDER BY id") == "1|Tea|9.0\n2|Cake|4.25\n9|Bun|\n")
    }

    @Test func aRefusedRowAmongNewKeyedRowsWritesNothing() throws {
        let demo = try DemoDatabase(sql: Self.items)
        let before = try demo.dump()
        let run = try demo.run(["import", "items"], stdin: """
            {"id": 10, "name": "Bun", "price": 1}
            {"id": 11, "name": "Pie", "price": "cheap"}
            {"id": 12, "name": "Jam", "price": 2}

            """)
        #expect(run.code == 65)
        #expect(run.errors == """
            formstore: 1 row(s) failed validation; nothing was imported
              line 2: price: price is not a number

            """)
        #expect(try demo.dump() == before)
    }

    @Test func anotherUniqueColumnStillRefusesTheRow() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
            INSERT INTO tags VALUES (1, 'red');
            """)
        let before = try demo.dump()
        let run = try demo.run(["import", "tags"], stdin: "{\"id\": 2, \"name\": \"blue\"}\n{\"id\": 3, \"name\": \"red\"}\n")
        #expect(run.code == 65)
        #expect(run.errors == """
            formstore: 1 row(s) failed validation; nothing was imported
              line 2: UNIQUE constraint failed: tags.name

            """)
        #expect(try demo.dump() == before)
    }

    @Test func anExportOfNewAndStoredRowsImportsBackUnchanged() throws {
        let demo = try DemoDatabase(sql: Self.items)
        #expect(try demo.run(["import", "items"], stdin: "{\"id\": 3, \"name\": \"Bun\", \"price\": 0.1}\n").code == 0)
        let exported = try demo.run(["export", "items"])
        let before = try demo.dump()
        let again = try demo.run(["import", "items"], stdin: exported.output)
        #expect(again.code == 0, "\(again)")
        #expect(again.errors == "Imported 3 row(s): 0 new, 0 updated, 3 unchanged.\n")
        #expect(try demo.dump() == before)
    }

    @Test func aTableWithAnInsertTriggerHearsOnlyTheRowsInserted() throws {
        let demo = try DemoDatabase(sql: Self.items + """

            CREATE TABLE heard (id INTEGER);
            CREATE TRIGGER hear BEFORE INSERT ON items BEGIN INSERT INTO heard VALUES (NEW.id); END;
            """)
        let run = try demo.run(["import", "items"], stdin: "{\"id\": 1, \"name\": \"Tea\"}\n{\"id\": 4, \"name\": \"Bun\"}\n")
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Imported 2 row(s): 1 new, 0 updated, 1 unchanged.\n")
        #expect(try demo.query("SELECT id FROM heard") == "4\n")
    }
}
