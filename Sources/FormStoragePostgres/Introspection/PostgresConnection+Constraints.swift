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
                       ORDER BY k.n), E'\\x1f'),
                   c.confrelid::pg_catalog.regclass::text, pg_catalog.pg_table_is_visible(c.confrelid),
                   c.conname, c.confmatchtype = 'f'
            FROM pg_catalog.pg_constraint c
            WHERE c.conrelid = pg_catalog.to_regclass(pg_catalog.quote_ident($1)) AND c.contype IN ('c', 'f')
            ORDER BY c.conname
            """, [name])
        var allowed: [String: [String]] = [:]
        var foreignKeys: [PostgresForeignKey] = []
        var checks: [String] = []
        for row in 0..<result.rowCount {
            if result.text(row: row, column: 0) == "c", let definition = result.text(row: row, column: 1) {
                checks.append(Self.checkExpression(definition))
            }
            let columns = (result.text(row: row, column: 2) ?? "").split(separator: "\u{1f}").map(String.init)
            if result.text(row: row, column: 0) == "f" {
                let destination = (result.text(row: row, column: 4) ?? "").split(separator: "\u{1f}").map(String.init)
                var key = PostgresForeignKey(destinationTable: result.text(row: row, column: 3) ?? "",
                                             columns: columns, destinationColumns: destination,
                                             destinationRelation: result.text(row: row, column: 5),
                                             destinationIsVisible: result.text(row: row, column: 6) != "f")
                key.name = result.text(row: row, column: 7)
                key.matchesFull = result.text(row: row, column: 8) == "t"
                foreignKeys.append(key)
            } else if columns.count == 1, allowed[columns[0]] == nil,
                      let values = PostgresCheckList.values(result.text(row: row, column: 1) ?? "") {
                allowed[columns[0]] = values
            }
        }
        return PostgresConstraints(allowedValues: allowed, foreignKeys: foreignKeys, checks: checks)
    }

    /// `CHECK ((qty > 0))` as its expression, `qty > 0`; a `NOT VALID` mark kept.
    static func checkExpression(_ definition: String) -> String {
        var text = Substring(definition)
        guard text.hasPrefix("CHECK (") else { return definition }
        text = text.dropFirst("CHECK ".count)
        var suffix = ""
        if text.hasSuffix(" NOT VALID") { text = text.dropLast(" NOT VALID".count); suffix = " NOT VALID" }
        // The server wraps the expression in one pair of parentheses more than it was written with.
        while text.hasPrefix("("), text.hasSuffix(")"), Self.closes(text) { text = text.dropFirst().dropLast() }
        return String(text) + suffix
    }

    /// Whether the `(` opening `text` is closed by its last character.
    private static func closes(_ text: Substring) -> Bool {
        var depth = 0
        for (offset, character) in text.enumerated() {
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
            if depth == 0 { return offset == text.count - 1 }
        }
        return false
    }
}
