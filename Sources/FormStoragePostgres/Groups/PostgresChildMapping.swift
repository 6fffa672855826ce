import FormCore

/// A repeating group bound to a PostgreSQL child table: the table's mapping
/// (through its inferred form, the group's fields taking the place of their
/// columns), the columns referring to the parent, and the SQL reading one
/// parent's rows in their order.
struct PostgresChildMapping: Sendable {
    let group: RowGroup
    let mapping: PostgresTableMapping
    /// The child's columns referring to the parent's key, in the parent key's order.
    let foreignKey: [String]
    let selectRowsSQL: String
    /// The same, locking the rows until the transaction ends (a save's conflict check).
    let selectRowsForUpdateSQL: String

    /// The parent's key columns when the child table is the parent's own: the
    /// parent row is left out of its rows (`ChildMapping.parentKey` says why).
    let parentKey: [String]

    init(group: RowGroup, mapping: PostgresTableMapping, foreignKey: [String], parentKey: [String] = []) {
        self.group = group
        self.mapping = mapping
        self.foreignKey = foreignKey
        self.parentKey = parentKey
        var filter = foreignKey.enumerated().map { "\(quoteIdentifier($1)) = $\($0 + 1)" }.joined(separator: " AND ")
        if !parentKey.isEmpty {
            filter += " AND NOT (" + parentKey.enumerated().map { "\(quoteIdentifier($1)) IS NOT DISTINCT FROM $\(foreignKey.count + $0 + 1)" }
                .joined(separator: " AND ") + ")"
        }
        // A child table without a key (nor an order column) has no order of its own: none is asked.
        let order = ([group.orderColumn].compactMap { $0 } + mapping.keyColumns).map(quoteIdentifier).joined(separator: ", ")
        selectRowsSQL = "SELECT \(mapping.columns.map(quoteIdentifier).joined(separator: ", ")) FROM "
            + "\(quoteIdentifier(mapping.table.name)) WHERE \(filter)" + (order.isEmpty ? "" : " ORDER BY \(order)")
        selectRowsForUpdateSQL = selectRowsSQL + " FOR UPDATE"
    }

    /// The foreign key's values for the parent with `key`, as the child's fields hold them.
    func foreignKeyValues(_ key: RecordKey) -> [String: FieldValue] {
        Dictionary(zip(foreignKey, key.values).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
    }

    /// The parent key's values as parameters of `selectRowsSQL`, in the child columns' coding.
    func parameters(_ key: RecordKey) -> [String?] {
        zip(foreignKey, key.values).map { mapping.coding($0).encode($1) } + zip(parentKey, key.values).map { mapping.coding($0).encode($1) }
    }

    /// The rows of the parent with `key`, in their order.
    func rows(of key: RecordKey, _ conn: PostgresConnection) throws -> [[String: FieldValue]] {
        let result = try conn.execute(selectRowsSQL, parameters(key))
        return (0..<result.rowCount).map { mapping.record(result, row: $0).values }
    }

    /// `rows(of:_:)` with each column as the database holds it (`PostgresCoding.exported`).
    func exportedRows(of key: RecordKey, _ conn: PostgresConnection) throws -> [[String: FieldValue]] {
        let result = try conn.execute(selectRowsSQL, parameters(key))
        let codings = mapping.columns.map(mapping.coding)
        return (0..<result.rowCount).map { row in
            var values: [String: FieldValue] = [:]
            for (index, column) in mapping.columns.enumerated() {
                values[column] = codings[index].exported(result.text(row: row, column: index))
            }
            return values
        }
    }

    /// Each stored row of the parent with `key` by its key, locked until the transaction ends.
    func lockedRows(of key: RecordKey, _ conn: PostgresConnection) throws -> [RecordKey: StoredRecord] {
        let result = try conn.execute(selectRowsForUpdateSQL, parameters(key))
        var rows: [RecordKey: StoredRecord] = [:]
        for row in 0..<result.rowCount {
            let record = mapping.record(result, row: row)
            rows[record.key] = record
        }
        return rows
    }

    /// Deletes, updates and inserts the rows of one group of the parent with
    /// `parent`, in that order (a key freed by a deleted row may be taken by
    /// a new one); each update and delete must touch exactly one row.
    /// With the parent's `history`, each row inserted or updated is recorded
    /// as a save of its own table's record (`PostgresHistoryWriter.forRows(of:)`).
    func write(_ change: GroupChanges, parent: RecordKey, stored: [RecordKey: StoredRecord],
               history: PostgresHistoryWriter?, _ conn: PostgresConnection) throws {
        // Rows are read before their update only when the store keeps history.
        let rowHistory = history.flatMap { $0.store.keepsHistory ? $0.forRows(of: mapping) : nil }
        for row in change.deletes {
            let changed = try conn.execute(mapping.deleteSQL, try mapping.keyParameters(row.key)).changedRows
            guard changed <= 1 else { throw PostgresStoreError.notOneRow(changed, table: mapping.table.name) }
        }
        for row in change.updates {
            let key = try mapping.keyParameters(row.key)
            guard let current = stored[row.key],
                  let statement = try mapping.updateStatement(row.changes, key: key, over: current.values) else { continue }
            let before = try rowHistory.map { _ in try conn.execute(mapping.selectByKeySQL, key) }
            let result = try conn.execute(statement.sql, statement.parameters)
            guard result.rowCount <= 1 else { throw PostgresStoreError.notOneRow(result.rowCount, table: mapping.table.name) }
            if let rowHistory, let before, before.rowCount == 1, result.rowCount == 1 {
                try rowHistory.record(before: mapping.storedTexts(before, row: 0), after: mapping.storedTexts(result, row: 0),
                                      key: mapping.record(result, row: 0).key, conn)
            }
        }
        for row in change.inserts {
            var values = row.merging(foreignKeyValues(parent)) { _, parent in parent }
            // A key column left empty is the server's to fill in (identity, serial, default).
            for column in mapping.keyColumns where values[column] == .null { values[column] = nil }
            // A key another parent's row holds: said so, where the server's duplicate key named no row.
            if mapping.keyColumns.allSatisfy({ values[$0] != nil }) {
                let key = RecordKey(columns: mapping.keyColumns, values: mapping.keyColumns.map { values[$0]! })
                if try conn.execute(mapping.selectByKeySQL, try mapping.keyParameters(key)).rowCount > 0 {
                    throw PostgresStoreError.badKey(GroupChanges.keyTaken(mapping.table.name, key))
                }
            }
            let statement = try mapping.insertStatement(values)
            let result = try conn.execute(statement.sql, statement.parameters)
            if let rowHistory, result.rowCount == 1 {
                try rowHistory.record(before: nil, after: mapping.storedTexts(result, row: 0), key: mapping.record(result, row: 0).key, conn)
            }
        }
    }
}
