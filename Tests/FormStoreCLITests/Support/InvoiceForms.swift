import FormStoreTestSupport
import Foundation

/// An invoice with ordered lines, as an application's own schema (made by
/// the `sqlite3` shell), and a spec folder whose form edits the lines as a
/// repeating group: at least one line, items unique, the total their sum.
final class InvoiceForms {
    static let schema = """
        CREATE TABLE invoice (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total NUMERIC NOT NULL DEFAULT 0);
        CREATE TABLE invoice_line (
            id INTEGER PRIMARY KEY,
            invoice_id INTEGER NOT NULL REFERENCES invoice(id),
            position INTEGER NOT NULL,
            item TEXT NOT NULL,
            amount NUMERIC NOT NULL
        );
        INSERT INTO invoice VALUES (1, 'Ann', 6), (2, 'Bo', 0);
        INSERT INTO invoice_line VALUES (10, 1, 1, 'Tea', 2.5), (11, 1, 2, 'Cake', 3.5);
        """

    static let spec = """
        {
          "formstore": 1, "name": "invoice", "title": "Invoice", "table": "invoice", "primaryKey": ["id"],
          "sections": [
            {"fields": [
              {"key": "customer", "label": "Customer", "kind": "text", "required": true},
              {"key": "total", "label": "Total", "kind": "decimal"}
            ]},
            {"title": "Lines",
             "fields": [{"key": "item", "label": "Item", "kind": "text", "required": true},
                        {"key": "amount", "label": "Amount", "kind": "decimal"}],
             "group": {"key": "lines", "table": "invoice_line", "foreignKey": ["invoice_id"], "orderColumn": "position",
                       "minRows": 1, "unique": ["item"], "sums": [{"column": "amount", "field": "total"}]}}
          ]
        }
        """

    let forms: TemporaryDirectory
    let db: DemoDatabase

    init() throws {
        forms = try TemporaryDirectory()
        try Self.spec.write(toFile: forms.path + "/invoice.json", atomically: true, encoding: .utf8)
        db = try DemoDatabase(sql: Self.schema, formsDirectory: forms.path)
    }

    /// The lines of an invoice in their order: `position|item|amount` a line.
    func lines(_ invoice: Int) throws -> String {
        try db.query("SELECT position, item, amount FROM invoice_line WHERE invoice_id = \(invoice) ORDER BY position")
    }
}
