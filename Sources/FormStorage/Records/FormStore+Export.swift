public import FormCore

extension FormStore {
    /// Like `forEachStoredRow`, but hands each row over in place: `body`
    /// reads each column's `DatabaseCell` straight from SQLite, so no value,
    /// array or string is made per row. What `export` writes its bytes from.
    ///
    /// ```swift
    /// try store.forEachStoredCells(form, columns: ["id", "name"]) { row in
    ///     if case .integer(let id) = row.cell(at: 0) { print(id) }
    /// }
    /// ```
    ///
    /// - throws: as `forEachStoredRow`.
    public func forEachStoredCells(_ form: Form, columns: [String], query: RecordQuery = RecordQuery(),
                                   _ body: (StoredCells) throws -> Void) throws {
        let statement = try storedRowsStatement(form, columns: columns, query: query)
        try database.read { conn in
            let prepared = try conn.cachedStatement(statement.sql)
            defer { prepared.reset() }
            try prepared.bind(StatementArguments(statement.arguments))
            let row = StoredCells(statement: prepared, count: columns.count)
            while try prepared.step() { try body(row) }
        }
    }
}

/// The current row of `FormStore.forEachStoredCells`, valid only inside its
/// `body`: the cells point into SQLite's buffers for this row.
public struct StoredCells {
    let statement: Statement
    /// The number of columns, as asked for.
    public let count: Int

    /// The 0-based column's cell.
    public func cell(at index: Int) -> DatabaseCell { statement.cell(at: index) }
}

@available(*, unavailable)
extension StoredCells: Sendable {}
