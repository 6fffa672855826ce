public import FormCore
public import FormStorage

extension PostgresFormStore {
    /// The form inferred from a table with a repeating group for each table
    /// whose foreign key refers to it (`PostgresFormInference.form(for:constraints:children:)`);
    /// nil when there is no such table. The referring tables are found in one
    /// catalog query, not by reading every table.
    ///
    /// - throws: `PostgresError`.
    public func inferredFormWithChildren(table name: String) throws -> Form? {
        try pool.read { conn -> Form? in
            guard let table = try conn.table(name) else { return nil }
            var children: [(table: PostgresTable, constraints: PostgresConstraints)] = []
            var seen = Set<String>()
            for referring in try conn.referringKeys(to: name) where seen.insert(referring.table).inserted {
                guard let child = try conn.table(referring.table) else { continue }
                children.append((child, try conn.constraints(of: referring.table)))
            }
            return PostgresFormInference.form(for: table, constraints: try conn.constraints(of: name), children: children)
        }
    }

    public func childTablesLeftOut(of table: String) throws -> [String] {
        let keys = try pool.read { try $0.referringKeys(to: table) }
        return Dictionary(grouping: keys, by: \.table).sorted { $0.key < $1.key }.compactMap { name, keys in
            FormInference.leftOutChild(name, keys: keys.map(\.key.columns))
        }
    }

    /// The columns of other tables (and of `table` itself) whose foreign keys
    /// point at `table` under no `ON DELETE` rule, as `orders.customer`
    /// (`t.(a, b)` for a composite key): what a person must change or delete
    /// before a row of `table` can go.
    ///
    /// - throws: `PostgresError`.
    public func referrers(of table: String) throws -> [String] {
        try pool.read { try Self.keysHoldingBack(table, $0) }.map(Self.referrerName)
    }

    /// `referrers(of:)` of the record's table, only the keys under which some
    /// other row refers to this record: what holds this record back (its
    /// reference to itself goes with it, as the database deletes it).
    public func referrers(of form: Form, key: RecordKey) throws -> [String] {
        let mapping = try mapping(for: form)
        let parameters = try mapping.keyParameters(key)
        let parent = mapping.table
        let selected = mapping.keyColumns.enumerated().map { "\(quoteIdentifier($1)) = $\($0 + 1)" }.joined(separator: " AND ")
        return try pool.read { conn in
            try Self.keysHoldingBack(parent.name, conn).filter { referring in
                let columns = referring.key.columns
                let referred = referring.key.destinationColumns.isEmpty ? parent.primaryKey : referring.key.destinationColumns
                guard referred.count == columns.count else { return true }
                // The record referring to itself (an employee their own manager) goes with the delete:
                // only other rows hold it back, as the database judges the delete.
                let others = referring.table == parent.name ? " AND (\(selected)) IS NOT TRUE" : ""
                let sql = "SELECT EXISTS (SELECT 1 FROM \(quoteIdentifier(referring.table)) WHERE "
                    + "(\(columns.map(quoteIdentifier).joined(separator: ", "))) IN (SELECT "
                    + "\(referred.map(quoteIdentifier).joined(separator: ", ")) FROM \(quoteIdentifier(parent.name)) "
                    + "WHERE \(selected))\(others))"
                return try conn.execute(sql, parameters).text(row: 0, column: 0) == "t"
            }.map(Self.referrerName)
        }
    }

    /// The foreign keys pointing at `table` under no ON DELETE rule: a key
    /// with a rule does not hold a row back, the database carries the rule out.
    private static func keysHoldingBack(_ table: String, _ conn: PostgresConnection) throws -> [PostgresReferringKey] {
        try conn.referringKeys(to: table).filter { DeleteEffect.Action(rule: $0.onDelete) == nil }
    }

    /// `orders.customer`, or `t.(a, b)` for a composite key.
    private static func referrerName(_ referring: PostgresReferringKey) -> String {
        let columns = referring.key.columns
        return "\(referring.table).\(columns.count == 1 ? columns[0] : "(\(columns.joined(separator: ", ")))")"
    }

    public func walkDelete(of form: Form, key: RecordKey,
                           holdingBack: ((DeleteEffect.Referrer) -> Void)?) throws -> [DeleteEffect] {
        let mapping = try mapping(for: form)
        let parameters = try mapping.keyParameters(key)
        let selected = mapping.keyColumns.enumerated().map { "\(quoteIdentifier($1)) = $\($0 + 1)" }
            .joined(separator: " AND ")
        return try pool.read { conn in
            try DeleteEffect.walk(table: mapping.table.name, selected: selected, referrers: { parent in
                try conn.referringKeys(to: parent).map { referring in
                    DeleteEffect.Referrer(table: referring.table, columns: referring.key.columns,
                                          referred: referring.key.destinationColumns,
                                          action: DeleteEffect.Action(rule: referring.onDelete))
                }
            }, count: { sql in
                try conn.execute(sql, parameters).text(row: 0, column: 0).flatMap { Int($0) } ?? 0
            }, holdingBack: holdingBack)
        }
    }
}
