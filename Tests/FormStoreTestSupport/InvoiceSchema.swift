/// Invoices and their lines, made by the `sqlite3` shell as an application
/// would: the parent and child tables the `--children` tests of the command
/// and of both backends share.
public enum InvoiceSchema {
    /// Invoice 1 (Ann) with lines 10 and 11, invoice 2 (Bo) with none.
    public static let sqlite = """
        CREATE TABLE invoice (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total NUMERIC NOT NULL DEFAULT 0);
        CREATE TABLE invoice_line (
            id INTEGER PRIMARY KEY,
            invoice_id INTEGER NOT NULL REFERENCES invoice(id),
            item TEXT NOT NULL,
            amount NUMERIC NOT NULL
        );
        INSERT INTO invoice VALUES (1, 'Ann', 5.5), (2, 'Bo', 0);
        INSERT INTO invoice_line VALUES (10, 1, 'Tea', 2.5), (11, 1, 'Cake', 3.5);

        """
}
