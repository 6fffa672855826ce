public import FormCore
public import FormStorage

/// Foreign keys as pickers on PostgreSQL, as `FormStore` offers them on
/// SQLite: the referenced rows as choices, found by a bound `ILIKE` search
/// that reads at most `limit` rows, and the label of the row a key refers to.
/// The tables and foreign keys a picker is made of are read once per store
/// (`PostgresCatalogCache`): a picker costs no catalog query after the first.
extension PostgresFormStore: ReferencePicking {
    /// The picker of a field that is a single-column foreign key of the form's
    /// table (`group.field` names a row field of a group's child table); `nil` for any other field.
    ///
    /// - throws: `PostgresStoreError` when the table is missing; `FormStoreError` when the field's
    ///   `labelColumn` names no column of the referenced table.
    public func picker(_ form: Form, field: String) throws -> ReferencePicker? {
        let (tableName, column) = Self.tableAndColumn(form, field)
        let named = Self.field(form, field)?.labelColumn
        return try pool.read { conn -> ReferencePicker? in
            guard try catalog.table(tableName, conn) != nil else { throw PostgresStoreError.unknownTable(tableName) }
            let keys = try catalog.constraints(of: tableName, conn).foreignKeys
            return try picker(keys: keys, column: column, labelColumn: named, form: form, field: field, conn)
        }
    }

    /// The pickers of every field of the form (not its groups) that is a
    /// single-column foreign key, by field key: what `show` and `list` label.
    public func pickers(_ form: Form) throws -> [String: ReferencePicker] {
        try pool.read { conn in
            guard try catalog.table(form.tableName, conn) != nil else { throw PostgresStoreError.unknownTable(form.tableName) }
            let keys = try catalog.constraints(of: form.tableName, conn).foreignKeys
            var pickers: [String: ReferencePicker] = [:]
            for field in form.fields where field.holdsValue {
                guard let picker = try picker(keys: keys, column: field.key, labelColumn: field.labelColumn,
                                                   form: form, field: field.key, conn) else { continue }
                pickers[field.key] = picker
            }
            return pickers
        }
    }

    /// Referenced rows whose label (or key, exactly) contains `search` (any
    /// case), ordered by label, at most `limit`; empty for a field that is no foreign key.
    public func choices(_ form: Form, field: String, search: String? = nil, limit: Int = 20) throws -> [Choice] {
        guard let picker = try picker(form, field: field) else { return [] }
        let key = quoteIdentifier(picker.column)
        let label = picker.labelColumn.map(quoteIdentifier) ?? key
        var sql = "SELECT \(key), \(label) FROM \(picker.quotedTable)"
        var parameters: [String?] = []
        if let search, !search.isEmpty {
            sql += " WHERE CAST(\(label) AS text) ILIKE $1 ESCAPE '\\' OR CAST(\(key) AS text) = $2"
            parameters = [RecordQuery.likePattern(search), search]
        }
        sql += " ORDER BY \(label), \(key) LIMIT $\(parameters.count + 1)"
        parameters.append(String(max(limit, 0)))
        return try pool.read { conn in
            guard let table = try catalog.table(picker.table, relation: picker.relation, conn) else { return [] }
            let keyCoding = PostgresCoding(kind: nil, column: table.column(picker.column))
            let labelCoding = PostgresCoding(kind: nil, column: picker.labelColumn.flatMap(table.column))
            let result = try conn.execute(sql, parameters)
            return (0..<result.rowCount).map { row in
                let value = keyCoding.decode(result.text(row: row, column: 0))
                let shown = labelCoding.decode(result.text(row: row, column: 1))
                return Choice(value, label: picker.labelColumn == nil ? nil : shown.textValue ?? Choice.defaultLabel(for: shown))
            }
        }
    }

    /// The row `value` refers to through `picker`, shown by its label column;
    /// `nil` for NULL or a picker without a label column. One indexed lookup.
    public func referencedRow(_ picker: ReferencePicker, value: FieldValue) throws -> ReferencedRow? {
        guard value != .null, let label = picker.labelColumn else { return nil }
        let sql = "SELECT CAST(\(quoteIdentifier(label)) AS text) FROM \(picker.quotedTable) "
            + "WHERE \(quoteIdentifier(picker.column)) = $1 LIMIT 1"
        // The server reads the parameter as the key column's own type.
        let parameter = PostgresCoding(kind: nil, column: nil).encode(value)
        return try pool.read { conn in
            let result = try conn.execute(sql, [parameter])
            guard result.rowCount > 0 else { return .missing }
            guard let text = result.text(row: 0, column: 0) else { return .labelled(Choice.defaultLabel(for: .null)) }
            return .labelled(text)
        }
    }

    public func referenceLabel(_ form: Form, field: String, value: FieldValue) throws -> String? {
        guard value != .null, let picker = try picker(form, field: field) else { return nil }
        guard case .labelled(let label)? = try referencedRow(picker, value: value) else { return nil }
        return label
    }

    /// The picker of `column` among a table's foreign keys: the referenced
    /// table's column, and the label column the spec names (checked to be
    /// one of its columns) or the inferred one.
    private func picker(keys: [PostgresForeignKey], column: String, labelColumn named: String?,
                        form: Form, field: String, _ conn: PostgresConnection) throws -> ReferencePicker? {
        guard let key = keys.first(where: { $0.columns == [column] }) else { return nil }
        // A table of another schema by the name SQL gives it: by its name alone, the search path finds another or none.
        let relation = key.destinationIsVisible ? nil : key.destinationRelation
        guard let referenced = try catalog.table(key.destinationTable, relation: relation, conn) else { return nil }
        guard let target = key.destinationColumns.first ?? referenced.primaryKey.first else { return nil }
        if let named, referenced.column(named) == nil {
            throw FormStoreError.unknownLabelColumn(named, field: field, form: form.name, table: referenced.name)
        }
        return ReferencePicker(table: referenced.name, column: target,
                               labelColumn: named ?? Self.inferredLabel(of: referenced, besides: target), relation: relation)
    }

    /// The first text column, other than the referenced one, that is UNIQUE or
    /// NOT NULL, and not named like a password or secret.
    static func inferredLabel(of table: PostgresTable, besides column: String) -> String? {
        let unique = Set(table.uniqueKeys.filter { $0.count == 1 }.map { $0[0] })
        return table.columns.first { info in
            info.name != column && Self.textTypes.contains(info.typeName) && !info.isGenerated
                && !ReferencePicker.looksSecret(info.name)
                && (info.isNotNull || unique.contains(info.name))
        }?.name
    }

    /// The types read as text (an enum, uuid or json column is no label).
    private static let textTypes: Set<String> = ["text", "varchar", "bpchar", "citext", "name"]

    private static func tableAndColumn(_ form: Form, _ field: String) -> (String, String) {
        if let dot = field.firstIndex(of: "."), let group = form.group(String(field[..<dot])) {
            return (group.tableName, String(field[field.index(after: dot)...]))
        }
        return (form.tableName, field)
    }

    /// A field of the form, or `group.field` of a group's rows.
    private static func field(_ form: Form, _ path: String) -> Field? {
        if let dot = path.firstIndex(of: "."), let group = form.group(String(path[..<dot])) {
            return group.field(String(path[path.index(after: dot)...]))
        }
        return form.field(path)
    }
}
