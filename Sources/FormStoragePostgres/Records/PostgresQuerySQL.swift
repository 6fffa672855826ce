import FormCore
import FormStorage

/// The SQL of a `RecordQuery` over one PostgreSQL mapping: a WHERE, an ORDER
/// BY and a LIMIT/OFFSET, every value bound as `$n`. Values are compared in
/// the column's own type (the server reads the parameter as that type), so a
/// date compares as a date; NULLs sort first, as in SQLite.
struct PostgresQuerySQL {
    let mapping: PostgresTableMapping

    /// `SELECT select FROM table` with the query's clauses, and its parameters.
    func statement(selecting select: [String], _ query: RecordQuery) throws -> (sql: String, parameters: [String?]) {
        var parameters: [String?] = []
        func bind(_ value: String?) -> String {
            parameters.append(value)
            return "$\(parameters.count)"
        }
        let columns = try select.map(column)
        var sql = "SELECT \(columns.isEmpty ? "NULL" : columns.joined(separator: ", ")) FROM \(quoteIdentifier(mapping.table.name))"
        var conditions: [String] = []
        for filter in query.filters {
            let value = try column(filter.field)
            let coding = mapping.coding(filter.field)
            switch filter.test {
            case .equals(let model):
                conditions.append("\(value) IS NOT DISTINCT FROM \(bind(coding.encode(model)))")
            case .compare(let comparison, let model):
                conditions.append("\(value) \(Self.sqlOperator(comparison)) \(bind(coding.encode(model)))")
            case .contains(let text):
                conditions.append("CAST(\(value) AS text) ILIKE \(bind(RecordQuery.likePattern(text))) ESCAPE '\\'")
            case .isEmpty:
                conditions.append("(\(value) IS NULL OR CAST(\(value) AS text) = '')")
            case .isNull:
                conditions.append("\(value) IS NULL")
            case .isNotNull:
                conditions.append("\(value) IS NOT NULL")
            }
        }
        if let search = query.search {
            let pattern = RecordQuery.likePattern(search)
            let parts = try RecordQuery.searchedFields(of: mapping.form).map { field in
                "CAST(\(try column(field.key)) AS text) ILIKE \(bind(pattern)) ESCAPE '\\'"
            }
            conditions.append("(" + parts.joined(separator: " OR ") + ")")
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        var order = try query.order.map { key in
            try column(key.field) + (key.descending ? " DESC NULLS LAST" : " NULLS FIRST")
        }
        order += mapping.keyColumns.filter { column in !query.order.contains { $0.field == column } }.map(quoteIdentifier)
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        if query.limit != nil || query.offset > 0 {
            sql += " LIMIT \(bind(query.limit.map { String(max(0, $0)) })) OFFSET \(bind(String(max(0, query.offset))))"
        }
        return (sql, parameters)
    }

    /// A field or key column of the form, quoted.
    ///
    /// - throws: `PostgresStoreError` for a name that is neither.
    private func column(_ name: String) throws -> String {
        if let path = mapping.pathExpression(name) { return path }
        guard mapping.columns.contains(name) || mapping.table.column(name) != nil else {
            throw PostgresStoreError.unknownColumn(name, form: mapping.form.name, table: mapping.table.name)
        }
        return quoteIdentifier(name)
    }

    /// NULL compares as a value in (in)equality, as SQLite's `IS` does.
    private static func sqlOperator(_ comparison: RecordFilter.Comparison) -> String {
        switch comparison {
        case .equal: return "IS NOT DISTINCT FROM"
        case .notEqual: return "IS DISTINCT FROM"
        default: return comparison.rawValue
        }
    }
}
