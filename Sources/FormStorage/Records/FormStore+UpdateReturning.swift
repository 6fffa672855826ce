import FormCore

/// A save's write and read-back in one statement.
extension FormStore {
    /// Whether a save may read its row back from `UPDATE … RETURNING`: not
    /// when a trigger may change the row after the statement (only a `SELECT`
    /// sees that), nor for a view.
    static func readsBackByReturning(_ mapping: TableMapping, _ conn: Connection) throws -> Bool {
        try mapping.readsBackByReturning && conn.hasNoTriggers(on: mapping.table.name)
    }

    /// Runs `update` (made with `returning: true`, so it ends in a `RETURNING`
    /// of the mapping's columns) and reads the row it wrote, inside the caller's transaction: the `SELECT` after the
    /// `UPDATE` that a save otherwise needs, saved. `nil` when no row has the key.
    ///
    /// - throws: `FormStoreError` (`notOneRow`, rolling back) when the key
    ///   named several rows; `DatabaseError`.
    static func updateReturning(_ mapping: TableMapping, _ update: (sql: String, arguments: StatementArguments),
                                _ conn: Connection) throws -> StoredRow? {
        let statement = try conn.cachedStatement(update.sql)
        try statement.bind(update.arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let row = mapping.row(from: statement)
        var count = 1
        while try statement.step() { count += 1 }
        guard count == 1 else { throw FormStoreError.notOneRow(count, table: mapping.table.name) }
        return row
    }
}
