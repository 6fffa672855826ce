/// The foreign keys that point at a table, read from `pg_constraint` in one
/// statement: what child tables (`--children`) and a refused delete's
/// referrers are made of.
extension PostgresConnection {
    /// Every foreign key of a visible table that refers to the table named
    /// `name` (as written, case kept), by referring table then constraint name;
    /// empty when there is no such table.
    ///
    /// - throws: `PostgresError`.
    public func referringKeys(to name: String) throws -> [PostgresReferringKey] {
        let result = try execute("""
            SELECT r.relname,
                   pg_catalog.array_to_string(ARRAY(
                       SELECT a.attname FROM pg_catalog.unnest(c.conkey) WITH ORDINALITY k(attnum, n)
                       JOIN pg_catalog.pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
                       ORDER BY k.n), E'\\x1f'),
                   pg_catalog.array_to_string(ARRAY(
                       SELECT a.attname FROM pg_catalog.unnest(c.confkey) WITH ORDINALITY k(attnum, n)
                       JOIN pg_catalog.pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum
                       ORDER BY k.n), E'\\x1f'),
                   c.confdeltype
            FROM pg_catalog.pg_constraint c
            JOIN pg_catalog.pg_class r ON r.oid = c.conrelid
            WHERE c.confrelid = pg_catalog.to_regclass(pg_catalog.quote_ident($1)) AND c.contype = 'f'
              AND pg_catalog.pg_table_is_visible(r.oid)
            ORDER BY r.relname, c.conname
            """, [name])
        return (0..<result.rowCount).map { row in
            let split = { (column: Int) in (result.text(row: row, column: column) ?? "").split(separator: "\u{1f}").map(String.init) }
            return PostgresReferringKey(table: result.text(row: row, column: 0) ?? "",
                                        key: PostgresForeignKey(destinationTable: name, columns: split(1),
                                                                destinationColumns: split(2)),
                                        onDelete: Self.deleteRule(result.text(row: row, column: 3)))
        }
    }
}

/// A foreign key of `table` that refers to another table.
public struct PostgresReferringKey: Sendable, Hashable {
    public let table: String
    public let key: PostgresForeignKey
    /// Its `ON DELETE` rule as SQL spells it: `NO ACTION`, `RESTRICT`, `CASCADE`, `SET NULL`, `SET DEFAULT`.
    public var onDelete: String = "NO ACTION"
}

extension PostgresConnection {
    /// `pg_constraint.confdeltype` as SQL spells the rule.
    static func deleteRule(_ code: String?) -> String {
        switch code {
        case "r": "RESTRICT"
        case "c": "CASCADE"
        case "n": "SET NULL"
        case "d": "SET DEFAULT"
        default: "NO ACTION"
        }
    }
}
