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
            let tables = try conn.tableNames(includingViews: false).map { try conn.tableInfo($0) }
            return try FormInference.readingDatesAsStored(FormInference.form(for: try conn.tableInfo(name), including: tables), conn)
        }
    }

    public func childTablesLeftOut(of table: String) throws -> [String] {
        try database.read { conn in
            try conn.tableNames(includingViews: false).compactMap { name -> String? in
                let keys = try conn.tableInfo(name).foreignKeys.filter { $0.destinationTable.equalsIgnoringCase(table) }.map(\.columns)
                return FormInference.leftOutChild(name, keys: keys)
            }
        }
    }

    /// The columns of other tables (and of `table` itself) whose foreign keys
    /// point at `table` under no `ON DELETE` rule, as `orders.customer`
    /// (`t.(a, b)` for a composite key): what a person must change or delete
    /// before a row of `table` can go.
    ///
    /// - throws: `DatabaseError`.
    public func referrers(of table: String) throws -> [String] {
        try database.read { conn in try Self.keysHoldingBack(table, conn).map(Self.referrerName) }
    }

    public func referrers(of form: Form, key: RecordKey) throws -> [String] {
        let mapping = try mapping(for: form)
        let arguments = StatementArguments(try mapping.keyArguments(key))
        let parent = mapping.table
        return try database.read { conn in
            try Self.keysHoldingBack(parent.name, conn).filter { name, key in
                let referred = key.destinationColumns.isEmpty ? parent.primaryKey.columns : key.destinationColumns
                guard referred.count == key.columns.count else { return true }
                // Row values: a composite key's columns together (SQLite 3.15 and later), each
                // compared by the parent column's collation, as SQLite matches the key.
                let compared = DeleteEffect.Referrer(table: name, columns: key.columns, referred: referred, action: nil,
                                                     collations: referred.map { conn.collation(of: $0, in: parent.name) })
                // The record referring to itself (an employee their own manager) goes with the delete:
                // only other rows hold it back, as the database judges the delete.
                let others = name.equalsIgnoringCase(parent.name) ? " AND (\(mapping.numberedWhereKey)) IS NOT TRUE" : ""
                let sql = "SELECT EXISTS (SELECT 1 FROM \(quoteIdentifier(name)) WHERE "
                    + "(\(compared.comparedColumns)) IN (SELECT "
                    + "\(referred.map(quoteIdentifier).joined(separator: ", ")) FROM \(quoteIdentifier(parent.name)) "
                    + "WHERE \(mapping.numberedWhereKey))\(others))"
                return try conn.fetchValue(Bool.self, sql, arguments) == true
            }.map(Self.referrerName)
        }
    }

    /// The foreign keys of every table pointing at `table` under no ON DELETE
    /// rule: a key with a rule does not hold a row back, the database carries the rule out.
    private static func keysHoldingBack(_ table: String, _ conn: Connection) throws -> [(table: String, key: ForeignKey)] {
        try conn.tableNames(includingViews: false).flatMap { name in
            try conn.tableInfo(name).foreignKeys
                .filter { $0.destinationTable.equalsIgnoringCase(table) && DeleteEffect.Action(rule: $0.onDelete) == nil }
                .map { (name, $0) }
        }
    }

    /// `orders.customer`, or `t.(a, b)` for a composite key.
    private static func referrerName(_ referrer: (table: String, key: ForeignKey)) -> String {
        let columns = referrer.key.columns
        return "\(referrer.table).\(columns.count == 1 ? columns[0] : "(\(columns.joined(separator: ", ")))")"
    }

    public func walkDelete(of form: Form, key: RecordKey,
                           holdingBack: ((DeleteEffect.Referrer) -> Void)?) throws -> [DeleteEffect] {
        let mapping = try mapping(for: form)
        let arguments = StatementArguments(try mapping.keyArguments(key))
        // Numbered parameters: the record's condition is repeated in every query of the walk.
        let selected = mapping.numberedWhereKey
        return try database.read { conn in
            let tables = try conn.tableNames(includingViews: false).map { try conn.tableInfo($0) }
            return try DeleteEffect.walk(table: mapping.table.name, selected: selected, referrers: { parent in
                let parentKey = tables.first { $0.name.equalsIgnoringCase(parent) }?.primaryKey.columns ?? []
                return tables.flatMap { table in
                    table.foreignKeys.filter { $0.destinationTable.equalsIgnoringCase(parent) }.map { foreignKey in
                        // A key naming no columns refers to the parent's primary key.
                        let referred = foreignKey.destinationColumns.isEmpty ? parentKey : foreignKey.destinationColumns
                        return DeleteEffect.Referrer(table: table.name, columns: foreignKey.columns, referred: referred,
                                                     action: DeleteEffect.Action(rule: foreignKey.onDelete),
                                                     collations: referred.map { conn.collation(of: $0, in: parent) })
                    }
                }
            }, count: { sql in try conn.fetchValue(Int.self, sql, arguments) ?? 0 }, holdingBack: holdingBack)
        }
    }
}
