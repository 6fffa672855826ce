/// Tables read from `pg_catalog`, in the schemas of the search path: never
/// from `information_schema`, whose views are slow and leave out enums' labels.
extension PostgresConnection {
    /// The ordinary tables and views of the search path's schemas, by name;
    /// `kinds` narrows them (`'v'`: the views), a literal list of `relkind`s.
    public func tableNames(kinds: StaticString = "'r', 'p', 'v'") throws -> [String] {
        let result = try execute("""
            SELECT c.relname FROM pg_catalog.pg_class c
            WHERE c.relkind IN (\(kinds)) AND pg_catalog.pg_table_is_visible(c.oid)
              AND c.relnamespace <> 'pg_catalog'::regnamespace
              AND c.relname NOT LIKE 'formstore\\_%'
            ORDER BY c.relname
            """)
        return (0..<result.rowCount).compactMap { result.text(row: $0, column: 0) }
    }

    /// The table named `name` (as written, case kept); nil when there is none.
    /// `relation`: the table as SQL names it (`other.target`, a foreign key's
    /// `destinationRelation`), where the search path finds another or none by its name alone.
    ///
    /// - throws: `PostgresError`.
    public func table(_ name: String, relation: String? = nil) throws -> PostgresTable? {
        let relation = try execute("""
            SELECT c.oid, c.relkind, EXISTS (SELECT 1 FROM pg_catalog.pg_trigger t
                WHERE t.tgrelid = c.oid AND NOT t.tgisinternal AND (t.tgtype & 66) <> 0), c.relrowsecurity
            FROM pg_catalog.pg_class c
            WHERE c.oid = pg_catalog.to_regclass(COALESCE($2, pg_catalog.quote_ident($1)))
            """, [name, relation])
        guard relation.rowCount == 1, let oid = relation.text(row: 0, column: 0) else { return nil }
        let columns = try execute("""
            SELECT a.attname, COALESCE(bt.typname, t.typname), et.typname, a.attnotnull,
                   pg_catalog.pg_get_expr(d.adbin, d.adrelid), a.attidentity <> '', a.attgenerated <> '',
                   (SELECT pg_catalog.string_agg(e.enumlabel, E'\\x1f' ORDER BY e.enumsortorder)
                    FROM pg_catalog.pg_enum e WHERE e.enumtypid = COALESCE(bt.oid, t.oid)),
                   a.attidentity = 'a'
            FROM pg_catalog.pg_attribute a
            JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
            -- A domain is read as the type it is over (an integer domain is a number).
            LEFT JOIN pg_catalog.pg_type bt ON bt.oid = t.typbasetype AND t.typtype = 'd'
            LEFT JOIN pg_catalog.pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
            LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """, [oid])
        let keys = try execute("""
            SELECT i.indisprimary, pg_catalog.array_to_string(ARRAY(
                SELECT a.attname FROM pg_catalog.unnest(i.indkey) WITH ORDINALITY k(attnum, n)
                JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                ORDER BY k.n), E'\\x1f')
            FROM pg_catalog.pg_index i
            WHERE i.indrelid = $1::oid AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
            """, [oid])
        var primaryKey: [String] = []
        var uniqueKeys: [[String]] = []
        for row in 0..<keys.rowCount {
            let names = (keys.text(row: row, column: 1) ?? "").split(separator: "\u{1f}").map(String.init)
            if keys.text(row: row, column: 0) == "t" { primaryKey = names }
            uniqueKeys.append(names)
        }
        var table = PostgresTable(name: name, columns: (0..<columns.rowCount).map { row -> PostgresColumn in
            var column = PostgresColumn(
                name: columns.text(row: row, column: 0) ?? "",
                typeName: columns.text(row: row, column: 1) ?? "text",
                elementTypeName: columns.text(row: row, column: 2),
                // NULL for a type that is no enum; an enum's empty label ('') is a label like any other.
                enumLabels: columns.text(row: row, column: 7).map {
                    $0.split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
                } ?? [],
                isNotNull: columns.text(row: row, column: 3) == "t",
                defaultSQL: columns.text(row: row, column: 4),
                isIdentity: columns.text(row: row, column: 5) == "t",
                isGenerated: columns.text(row: row, column: 6) == "t")
            column.isAlwaysIdentity = columns.text(row: row, column: 8) == "t"
            return column
        }, primaryKey: primaryKey, uniqueKeys: uniqueKeys)
        table.isView = relation.text(row: 0, column: 1) == "v"
        table.rewritesRows = relation.text(row: 0, column: 2) == "t"
        table.hasRowSecurity = relation.text(row: 0, column: 3) == "t"
        return table
    }
}
