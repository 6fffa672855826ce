/// Check and foreign-key constraints read from `pg_constraint`, for inferred forms.
extension PostgresConnection {
    /// The constraints of the table named `name` (as written, case kept);
    /// empty ones when there is no such table.
    ///
    /// - throws: `PostgresError`.
    public func constraints(of name: String) throws -> PostgresConstraints {
        let result = try execute("""
            SELECT c.contype, pg_catalog.pg_get_constraintdef(c.oid),
                   pg_catalog.array_to_string(ARRAY(
                       SELECT a.attname FROM pg_catalog.unnest(c.conkey) WITH ORDINALITY k(attnum, n)
                       JOIN pg_catalog.pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
                       ORDER BY k.n), E'\\x1f'),
                   (SELECT r.relname FROM pg_catalog.pg_class r WHERE r.oid = c.confrelid),
                   pg_catalog.array_to_string(ARRAY(
                       SELECT a.attname FROM pg_catalog.unnest(c.confkey) WITH ORDINALITY k(attnum, n)
                       JOIN pg_catalog.pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum
                       ORDER BY k.n), E'\\x1f')
            FROM pg_catalog.pg_constraint c
            WHERE c.conrelid = pg_catalog.to_regclass(pg_catalog.quote_ident($1)) AND c.contype IN ('c', 'f')
            ORDER BY c.conname
            """, [name])
        var allowed: [String: [String]] = [:]
        var foreignKeys: [PostgresForeignKey] = []
        for row in 0..<result.rowCount {
            let columns = (result.text(row: row, column: 2) ?? "").split(separator: "\u{1f}").map(String.init)
            if result.text(row: row, column: 0) == "f" {
                let destination = (result.text(row: row, column: 4) ?? "").split(separator: "\u{1f}").map(String.init)
                foreignKeys.append(PostgresForeignKey(destinationTable: result.text(row: row, column: 3) ?? "",
                                                      columns: columns, destinationColumns: destination))
            } else if columns.count == 1, allowed[columns[0]] == nil,
                      let values = PostgresCheckList.values(result.text(row: row, column: 1) ?? "") {
                allowed[columns[0]] = values
            }
        }
        return PostgresConstraints(allowedValues: allowed, foreignKeys: foreignKeys)
    }
}
