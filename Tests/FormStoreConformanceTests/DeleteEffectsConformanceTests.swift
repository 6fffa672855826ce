import FormStoreTestSupport
import Foundation
import Testing

/// `delete` says what the schema's `ON DELETE` rules do to the rows that
/// refer to the record, and to the rows a cascade deletes with it, on both
/// backends, through the built binary; rows under no such rule still refuse it.
@Suite struct DeleteEffectsConformanceTests {
    /// One script for both: `integer PRIMARY KEY` is the rowid on SQLite.
    static let sql = """
        CREATE TABLE customer (id integer PRIMARY KEY, name text NOT NULL);
        CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer REFERENCES customer(id) ON DELETE CASCADE);
        CREATE TABLE tickets (id integer PRIMARY KEY, customer_id integer REFERENCES customer(id) ON DELETE SET NULL);
        CREATE TABLE invoices (id integer PRIMARY KEY, customer_id integer REFERENCES customer(id));
        INSERT INTO customer VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cy');
        INSERT INTO orders VALUES (10, 1), (11, 1), (12, 2);
        INSERT INTO tickets VALUES (20, 1), (21, 3);
        INSERT INTO invoices VALUES (30, 2);
        """
    static let schema = Schema(sqlite: sql, postgres: sql)

    @Test(arguments: BackendKind.allCases)
    func aDeleteSaysWhatItsRulesDoToTheRowsReferringToIt(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.schema)
        let db = ["--db", backend.location]
        let ann = try runBinary(db + ["delete", "customer", "1", "--yes"])
        #expect(ann.code == 0, "\(kind): \(ann)")
        #expect(ann.errors == "Deleted customer 1, with 2 rows of orders deleted (ON DELETE CASCADE), "
                + "and tickets.customer_id cleared in 1 row (ON DELETE SET NULL).\n", "\(kind): \(ann)")
        #expect(try backend.row("SELECT count(*) FROM orders") == ["1"])
        #expect(try backend.row("SELECT count(*) FROM tickets WHERE customer_id IS NULL") == ["1"])
        // No rows under a rule: nothing more is said.
        let cy = try runBinary(db + ["delete", "customer", "3", "--yes"])
        #expect(cy.errors == "Deleted customer 3, with tickets.customer_id cleared in 1 row (ON DELETE SET NULL).\n",
                "\(kind): \(cy)")
        // An invoice refers to Bob under no rule: the delete is refused, his order kept.
        let bob = try runBinary(db + ["delete", "customer", "2", "--yes"])
        #expect(bob.code == 65, "\(kind): \(bob)")
        // Only the key that holds it back is named: the rules carry out the others.
        #expect(bob.errors.contains("other records refer to it through invoices.customer_id; "), "\(kind): \(bob)")
        #expect(try backend.row("SELECT count(*) FROM orders WHERE customer_id = 2") == ["1"])
    }

    /// Cascades followed on: orders, their items (by a key naming no column,
    /// so the orders' primary key), the shipments of those items; a
    /// self-reference down a chain of bosses, and round a loop of two.
    static let chains = Schema(sqlite: chainsSQL, postgres: chainsSQL)
    static let chainsSQL = """
        CREATE TABLE customer (id integer PRIMARY KEY, name text NOT NULL);
        CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer REFERENCES customer(id) ON DELETE CASCADE);
        CREATE TABLE order_items (id integer PRIMARY KEY, order_id integer REFERENCES orders ON DELETE CASCADE);
        CREATE TABLE shipments (id integer PRIMARY KEY, item_id integer REFERENCES order_items(id) ON DELETE SET NULL);
        CREATE TABLE staff (id integer PRIMARY KEY, boss integer REFERENCES staff(id) ON DELETE CASCADE);
        INSERT INTO customer VALUES (1, 'Ann'), (2, 'Bob');
        INSERT INTO orders VALUES (10, 1), (11, 1), (12, 2);
        INSERT INTO order_items VALUES (100, 10), (101, 10), (102, 11), (103, 12);
        INSERT INTO shipments VALUES (200, 100), (201, 102), (202, 103);
        INSERT INTO staff VALUES (1, NULL), (2, 1), (3, 2), (4, 3), (5, 1), (6, NULL), (7, NULL), (8, 7);
        UPDATE staff SET boss = 8 WHERE id = 7;
        """

    @Test(arguments: BackendKind.allCases)
    func aDeleteSaysWhatItsCascadesReachAtEveryLevel(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.chains)
        let db = ["--db", backend.location]
        let ann = try runBinary(db + ["delete", "customer", "1", "--yes"])
        #expect(ann.errors == "Deleted customer 1, with 2 rows of orders deleted (ON DELETE CASCADE), "
                + "3 rows of order_items deleted (ON DELETE CASCADE), "
                + "and shipments.item_id cleared in 2 rows (ON DELETE SET NULL).\n", "\(kind): \(ann)")
        #expect(try backend.row("SELECT count(*) FROM order_items") == ["1"])
        #expect(try backend.row("SELECT count(*) FROM shipments WHERE item_id IS NULL") == ["2"])
        // The record itself is not counted among its table's rows.
        let boss = try runBinary(db + ["delete", "staff", "1", "--yes"])
        #expect(boss.errors == "Deleted staff 1, with 4 rows of staff deleted (ON DELETE CASCADE).\n", "\(kind): \(boss)")
        #expect(try backend.row("SELECT count(*) FROM staff") == ["3"])
        // Round a loop, the walk stops where no new rows are reached.
        let loop = try runBinary(db + ["delete", "staff", "7", "--yes"])
        #expect(loop.errors == "Deleted staff 7, with 1 row of staff deleted (ON DELETE CASCADE).\n", "\(kind): \(loop)")
        #expect(try backend.row("SELECT count(*) FROM staff") == ["1"])
    }
}

