import FormStoreTestSupport
import Foundation
import Testing

/// `delete` says what the schema's `ON DELETE` rules do to the rows that
/// refer to the record (the rows that refer to it directly), on both
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
        #expect(bob.errors.contains("other records refer to it through"), "\(kind): \(bob)")
        #expect(try backend.row("SELECT count(*) FROM orders WHERE customer_id = 2") == ["1"])
    }
}
