public import FormCore

/// Queries: records streamed one at a time.
extension FormStore {
    /// Calls `body` with each record of `form` that passes every filter, in
    /// key order, at most `limit` of them. Rows are read one at a time by a
    /// single prepared statement inside one read transaction, so memory stays
    /// flat however many rows the table has, and every record comes from the
    /// same snapshot.
    ///
    /// ```swift
    /// try store.forEachRecord(form, where: [RecordFilter(field: "status", value: "open")], limit: 10) { record in
    ///     print(record.key)
    /// }
    /// ```
    ///
    /// `body` runs while the read transaction is open: it should not write to
    /// this database (it would wait for nothing, but sees the old snapshot).
    ///
    /// - throws: `FormStoreError` (`.unknownColumn`) for a filter on a column the
    ///   form does not read; `DatabaseError`; or what `body` throws, which stops the query.
    public func forEachRecord(_ form: Form, where filters: [RecordFilter] = [], limit: Int? = nil,
                              _ body: (StoredRecord) throws -> Void) throws {
        try forEachRecord(form, query: RecordQuery(filters: filters, limit: limit), body)
    }

    /// Calls `body` with each record of `form` that `query` selects, in its order.
    ///
    /// ```swift
    /// try store.forEachRecord(form, query: RecordQuery(search: "ann", order: [RecordOrder(field: "name")])) { record in
    ///     print(record.key)
    /// }
    /// ```
    ///
    /// - throws: `FormStoreError` (`.unknownColumn`, `.noTextToSearch`);
    ///   `DatabaseError`; or what `body` throws, which stops the query.
    public func forEachRecord(_ form: Form, query: RecordQuery, _ body: (StoredRecord) throws -> Void) throws {
        let mapping = try mapping(for: form)
        let select = QuerySQL.Fragment(sql: mapping.columns.map(quoteIdentifier).joined(separator: ", "))
        let statement = try QuerySQL(mapping: mapping).statement(selecting: select, query)
        try database.read { conn in
            let prepared = try conn.cachedStatement(statement.sql)
            defer { prepared.reset() }
            try prepared.bind(StatementArguments(statement.arguments))
            while try prepared.step() {
                try body(mapping.record(from: prepared))
            }
        }
    }

    /// Calls `body` with the values SQLite holds for `columns` of each record
    /// `query` selects, exactly as stored (no decoding, no re-formatting), in
    /// the order of `columns`: what an export writes, so that it imports back
    /// byte for byte. The array is reused from row to row; no record or
    /// dictionary is built.
    ///
    /// ```swift
    /// try store.forEachStoredRow(form, columns: ["id", "created_at"]) { values in
    ///     print(values[1])   // .text("2021-01-01 00:00:00"), or .integer(1609459200)
    /// }
    /// ```
    ///
    /// - parameter columns: the form's stored fields or key columns; a field
    ///   inside a JSON column gives the value at its path.
    /// - throws: `FormStoreError` (`.unknownColumn`, `.noTextToSearch`);
    ///   `DatabaseError`; or what `body` throws, which stops the query.
    public func forEachStoredRow(_ form: Form, columns: [String], query: RecordQuery = RecordQuery(),
                                 _ body: ([DatabaseValue]) throws -> Void) throws {
        let statement = try storedRowsStatement(form, columns: columns, query: query)
        try database.read { conn in
            let prepared = try conn.cachedStatement(statement.sql)
            defer { prepared.reset() }
            try prepared.bind(StatementArguments(statement.arguments))
            var row = [DatabaseValue](repeating: .null, count: columns.count)
            while try prepared.step() {
                for index in columns.indices { row[index] = prepared.value(at: index) }
                try body(row)
            }
        }
    }

    /// The SELECT of `columns` (as stored) of the records `query` chooses:
    /// shared by `forEachStoredRow` and `forEachStoredCells`, so both read the same rows.
    func storedRowsStatement(_ form: Form, columns: [String], query: RecordQuery) throws -> QuerySQL.Fragment {
        let mapping = try mapping(for: form)
        let sql = QuerySQL(mapping: mapping)
        var select = QuerySQL.Fragment(sql: "")
        for column in columns {
            let value = try sql.column(column)
            select.sql += (select.sql.isEmpty ? "" : ", ") + value.sql
            select.arguments += value.arguments
        }
        // A form of no columns still has rows: select a constant so the statement is valid.
        if select.sql.isEmpty { select.sql = "NULL" }
        return try sql.statement(selecting: select, query)
    }
}
