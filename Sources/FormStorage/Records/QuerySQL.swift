import FormCore
import FoundationEssentials

/// The SQL of a `RecordQuery` over one mapping: a WHERE, an ORDER BY and a
/// LIMIT/OFFSET, every value bound (never spliced into the text).
struct QuerySQL {
    /// SQL text and the arguments its `?` take, in order.
    struct Fragment {
        var sql: String
        var arguments: [DatabaseValue] = []
    }

    let mapping: TableMapping

    /// `mapping.selectSQL`-like text reading `select` from the table, with the
    /// query's clauses after it.
    func statement(selecting select: Fragment, _ query: RecordQuery) throws -> Fragment {
        var result = Fragment(sql: "SELECT \(select.sql) FROM \(quoteIdentifier(mapping.table.name))",
                              arguments: select.arguments)
        var conditions: [Fragment] = []
        for filter in query.filters { conditions.append(try condition(filter)) }
        if let search = query.search { conditions.append(try searchCondition(search)) }
        if !conditions.isEmpty {
            result.sql += " WHERE " + conditions.map(\.sql).joined(separator: " AND ")
            result.arguments += conditions.flatMap(\.arguments)
        }
        var order: [Fragment] = []
        for key in query.order {
            var fragment = try sortKey(key.field)
            fragment.sql += key.descending ? " DESC" : ""
            order.append(fragment)
        }
        // A page (`limit`, `offset`) is the one `list` shows, in key order.
        if query.inStoredOrder, query.order.isEmpty, query.limit == nil, query.offset == 0, !mapping.table.isView,
           !mapping.table.isWithoutRowID, !mapping.table.primaryKey.isRowID, let rowID = mapping.table.rowIDName {
            order.append(Fragment(sql: quoteIdentifier(rowID)))
        }
        order += mapping.keyColumns.filter { column in !query.order.contains { $0.field == column } }
            .map { Fragment(sql: quoteIdentifier($0)) }
        if !order.isEmpty {
            result.sql += " ORDER BY " + order.map(\.sql).joined(separator: ", ")
            result.arguments += order.flatMap(\.arguments)
        }
        if query.limit != nil || query.offset > 0 {
            result.sql += " LIMIT ? OFFSET ?"
            result.arguments += [.integer(Int64(query.limit.map { max(0, $0) } ?? -1)), .integer(Int64(max(0, query.offset)))]
        }
        return result
    }

    /// The stored value of a field or key column: the column, or the value at
    /// a JSON path inside one.
    func column(_ field: String) throws -> Fragment {
        if let path = mapping.jsonPaths[field] {
            return Fragment(sql: "json_extract(\(quoteIdentifier(path.column)), ?)", arguments: [.text(path.jsonPathText)])
        }
        guard mapping.columns.contains(field) else {
            throw FormStoreError.unknownColumn(field, field: field, form: mapping.form.name, table: mapping.table.name)
        }
        return Fragment(sql: quoteIdentifier(field))
    }

    private func condition(_ filter: RecordFilter) throws -> Fragment {
        let value = try column(filter.field)
        let coding = mapping.coding(filter.field)
        switch filter.test {
        case .equals(let model):
            return try condition(RecordFilter(field: filter.field, test: .compare(.equal, model)))
        case .compare(let comparison, let model):
            if case .bool(let truth) = model, coding.kind == .bool, comparison == .equal || comparison == .notEqual {
                // Read as `StorageCoding` reads a bool: a number by whether it is 0, text by its word.
                let sql = "(CASE WHEN typeof(\(value.sql)) IN ('integer', 'real') THEN \(value.sql) != 0 "
                    + "WHEN lower(trim(\(value.sql))) IN ('1', 'true', 't', 'yes', 'y', 'on') THEN 1 "
                    + "WHEN lower(trim(\(value.sql))) IN ('0', 'false', 'f', 'no', 'n', 'off') THEN 0 END) "
                    + "\(Self.sqlOperator(comparison)) ?"
                return Fragment(sql: sql, arguments: Array(repeating: value.arguments, count: 4).flatMap { $0 }
                                    + [.integer(truth ? 1 : 0)])
            }
            if case .date(let date) = model, coding.isDateLike {
                let instant = Self.instant(value, timeOfDay: coding.kind == .time)
                guard coding.kind == .date else {
                    return Fragment(sql: "\(instant.sql) \(Self.sqlOperator(comparison)) ?",
                                    arguments: instant.arguments + [.integer(Self.milliseconds(date, timeOfDay: coding.kind == .time))])
                }
                // A date field shows a day, so it is compared by day: `d=2024-01-02` matches
                // `'2024-01-02 10:00:00'` too, and `d<2024-01-02` none of that day.
                let day = Self.day(instant)
                return Fragment(sql: "\(day.sql) \(Self.sqlOperator(comparison)) ?",
                                arguments: day.arguments + [.integer(Self.day(Self.milliseconds(date, timeOfDay: false)))])
            }
            let argument = coding.encode(model)
            let orders = comparison != .equal && comparison != .notEqual
            if argument.isNumber, coding.isUntyped || orders {
                // A number against a column of no declared type, which may hold `10` and `'10'` alike, or
                // ordered against any column (SQLite ranks text and BLOBs above every number, so `q>100` would
                // match `'n/a'`): each row's value read as a number where it is one (text that SQLite would
                // write back the same, so `'007'` stays text, as it is shown), else as no number (NULL).
                let number = "(CASE WHEN typeof(\(value.sql)) IN ('integer', 'real') THEN \(value.sql) "
                    + "WHEN typeof(\(value.sql)) = 'text' AND CAST(CAST(\(value.sql) AS NUMERIC) AS TEXT) = \(value.sql) "
                    + "THEN CAST(\(value.sql) AS NUMERIC) END)"
                return Fragment(sql: "\(number) \(Self.sqlOperator(comparison)) ?",
                                arguments: Array(repeating: value.arguments, count: 6).flatMap { $0 } + [argument])
            }
            return Fragment(sql: "\(value.sql) \(Self.sqlOperator(comparison)) ?", arguments: value.arguments + [argument])
        case .contains(let text):
            return Fragment(sql: "\(value.sql) LIKE ? ESCAPE '\\'", arguments: value.arguments + [.text(Self.likePattern(text))])
        case .isEmpty:
            return Fragment(sql: "(\(value.sql) IS NULL OR \(value.sql) = '')", arguments: value.arguments + value.arguments)
        case .isNull:
            return Fragment(sql: "\(value.sql) IS NULL", arguments: value.arguments)
        case .isNotNull:
            return Fragment(sql: "\(value.sql) IS NOT NULL", arguments: value.arguments)
        }
    }

    /// Any of the form's text fields holds `text`.
    private func searchCondition(_ text: String) throws -> Fragment {
        let fields = mapping.form.fields.filter { field in
            field.holdsValue && field.isStored && !field.isSecure && Self.searchedKinds.contains(field.kind)
        }
        guard !fields.isEmpty else { throw FormStoreError.noTextToSearch(form: mapping.form.name) }
        let parts = try fields.map { field -> Fragment in
            let value = try column(field.key)
            return Fragment(sql: "\(value.sql) LIKE ? ESCAPE '\\'", arguments: value.arguments + [.text(Self.likePattern(text))])
        }
        return Fragment(sql: "(" + parts.map(\.sql).joined(separator: " OR ") + ")", arguments: parts.flatMap(\.arguments))
    }

    /// The kinds a text search looks in.
    static let searchedKinds: Set<FieldKind> = [.text, .name, .multiline, .email, .phone, .url, .address, .state, .zip, .choice]

    private func sortKey(_ field: String) throws -> Fragment {
        let value = try column(field)
        let coding = mapping.coding(field)
        return coding.isDateLike ? Self.instant(value, timeOfDay: coding.kind == .time) : value
    }

    /// `IS` and `IS NOT` for (in)equality, so that a NULL compares as a value.
    private static func sqlOperator(_ comparison: RecordFilter.Comparison) -> String {
        switch comparison {
        case .equal: return "IS"
        case .notEqual: return "IS NOT"
        default: return comparison.rawValue
        }
    }

    /// `%text%` with `\`, `%` and `_` escaped, for `LIKE … ESCAPE '\'`.
    static func likePattern(_ text: String) -> String {
        var pattern = "%"
        for character in text {
            if character == "\\" || character == "%" || character == "_" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// The instant a stored date holds, in milliseconds since 1970 UTC (or
    /// since midnight, for a time), read per row by `formstore_instant`, the
    /// way `DateStorageFormat.parse` reads it for the field (`SQLFunction.instant`).
    static func instant(_ value: Fragment, timeOfDay: Bool) -> Fragment {
        let sql = "formstore_instant(\(value.sql))"
        guard timeOfDay else { return Fragment(sql: sql, arguments: value.arguments) }
        return Fragment(sql: "((\(sql) % 86400000 + 86400000) % 86400000)", arguments: value.arguments + value.arguments)
    }

    /// The UTC day (days since 1970-01-01, rounded down) of an `instant`.
    static func day(_ instant: Fragment) -> Fragment {
        let s = instant.sql
        return Fragment(sql: "((\(s) - ((\(s) % 86400000 + 86400000) % 86400000)) / 86400000)",
                        arguments: instant.arguments + instant.arguments)
    }

    /// The UTC day of an instant in milliseconds since 1970, as `day(_:)` reads one in SQL.
    static func day(_ milliseconds: Int64) -> Int64 {
        (milliseconds - (milliseconds % 86_400_000 + 86_400_000) % 86_400_000) / 86_400_000
    }

    static func milliseconds(_ date: Date, timeOfDay: Bool) -> Int64 {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded())
        return timeOfDay ? (ms % 86_400_000 + 86_400_000) % 86_400_000 : ms
    }
}
