import FormBasics
public import FormCore

/// Child tables and referrers on SQLite: what `RecordStore` asks of every
/// store, so `--children` and a refused delete read the same on PostgreSQL.
extension FormStore {
    /// The form inferred from a table with a repeating group for each table
    /// whose one foreign key refers to it (`FormInference.form(for:including:)`);
    /// nil when there is no such table. Every table's foreign keys are read
    /// (`PRAGMA foreign_key_list`): SQLite has no catalog of who refers to whom.
    ///
    /// - throws: `DatabaseError`.
    public func inferredFormWithChildren(table name: String) throws -> Form? {
        try database.read { conn -> Form? in
            guard try conn.tableExists(name) else { return nil }
            let tables = try conn.tableNames().map { try conn.tableInfo($0) }
            return FormInference.form(for: try conn.tableInfo(name), including: tables)
        }
    }

    /// The columns of other tables (and of `table` itself) whose foreign keys
    /// point at `table`, as `orders.customer` (`t.(a, b)` for a composite
    /// key): what a person must change or delete before a row of `table` can go.
    ///
    /// - throws: `DatabaseError`.
    public func referrers(of table: String) throws -> [String] {
        try database.read { conn in
            var found: [String] = []
            for name in try conn.tableNames() {
                for key in try conn.tableInfo(name).foreignKeys where key.destinationTable.equalsIgnoringCase(table) {
                    let columns = key.columns.count == 1 ? key.columns[0] : "(\(key.columns.joined(separator: ", ")))"
                    found.append("\(name).\(columns)")
                }
            }
            return found
        }
    }

    public func deleteEffects(of form: Form, key: RecordKey) throws -> [DeleteEffect] {
        let mapping = try mapping(for: form)
        let arguments = try mapping.keyArguments(key)
        return try database.read { conn in
            var effects: [DeleteEffect] = []
            for name in try conn.tableNames() {
                for foreignKey in try conn.tableInfo(name).foreignKeys
                where foreignKey.destinationTable.equalsIgnoringCase(form.tableName)
                    && foreignKey.destinationColumns.count == foreignKey.columns.count {
                    guard let action = DeleteEffect.Action(rule: foreignKey.onDelete) else { continue }
                    let columns = foreignKey.columns.map(quoteIdentifier).joined(separator: ", ")
                    let referred = foreignKey.destinationColumns.map(quoteIdentifier).joined(separator: ", ")
                    let rows = try conn.fetchValue(Int.self, """
                        SELECT count(*) FROM \(quoteIdentifier(name)) WHERE (\(columns)) IN \
                        (SELECT \(referred) FROM \(quoteIdentifier(mapping.table.name)) WHERE \(mapping.whereKey))
                        """, StatementArguments(arguments)) ?? 0
                    if rows > 0 { effects.append(DeleteEffect(table: name, columns: foreignKey.columns, action: action, rows: rows)) }
                }
            }
            return effects
        }
    }
}
