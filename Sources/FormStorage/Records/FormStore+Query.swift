import FormCore

/// One test of a query on a stored field (or a key column).
///
/// ```swift
/// RecordFilter(field: "status", value: "open")   // status IS 'open'
/// RecordFilter.isEmpty("notes")                  // notes IS NULL OR notes = ''
/// ```
public struct RecordFilter: Sendable, Hashable {
    public enum Test: Sendable, Hashable {
        /// The stored value equals the model value, encoded through the field's
        /// storage coding (`.null` matches NULL).
        case equals(FieldValue)
        /// NULL or empty text: what a person means by a field left blank.
        case isEmpty
    }

    /// A stored field's key, or a key column.
    public var field: String
    public var test: Test

    public init(field: String, value: FieldValue) {
        self.field = field
        self.test = .equals(value)
    }

    public init(field: String, test: Test) {
        self.field = field
        self.test = test
    }

    public static func isEmpty(_ field: String) -> RecordFilter {
        RecordFilter(field: field, test: .isEmpty)
    }
}

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
        let mapping = try mapping(for: form)
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []
        for filter in filters {
            let column: String
            if let path = mapping.jsonPaths[filter.field] {
                // Inside a JSON text column: compare the value at its path; the path is bound.
                column = "json_extract(\(quoteIdentifier(path.column)), ?)"
                arguments.append(.text(path.jsonPathText))
            } else if mapping.columns.contains(filter.field) {
                column = quoteIdentifier(filter.field)
            } else {
                throw FormStoreError.unknownColumn(filter.field, field: filter.field, form: form.name,
                                                   table: mapping.table.name)
            }
            switch filter.test {
            case .equals(let value):
                // IS rather than =, so that a NULL filter matches NULL.
                conditions.append("\(column) IS ?")
                arguments.append(mapping.coding(filter.field).encode(value))
            case .isEmpty:
                conditions.append("(\(column) IS NULL OR \(column) = '')")
                if let path = mapping.jsonPaths[filter.field] { arguments.append(.text(path.jsonPathText)) }
            }
        }
        var sql = mapping.selectSQL
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if !mapping.keyColumns.isEmpty {
            sql += " ORDER BY " + mapping.keyColumns.map(quoteIdentifier).joined(separator: ", ")
        }
        if let limit {
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(max(0, limit))))
        }
        try database.read { conn in
            let statement = try conn.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind(StatementArguments(arguments))
            while try statement.step() {
                try body(mapping.record(from: statement))
            }
        }
    }
}
