public import FormCore

/// Foreign keys as pickers: the referenced rows as choices, found by a search
/// that reads at most `limit` rows, and a value referring to no row refused
/// with a message naming the field before SQLite's constraint error.
extension FormStore {
    /// The picker of a field that is a single-column foreign key of the
    /// form's table (`group.field` names a row field of a group's child
    /// table); `nil` for any other field.
    ///
    /// - throws: `FormStoreError` when the form's table (or the group's) is
    ///   missing, or the field's `labelColumn` names no column of the referenced table.
    public func picker(_ form: Form, field: String) throws -> ReferencePicker? {
        let (tableName, column) = try tableAndColumn(form, field)
        let named = Self.field(form, field)?.labelColumn
        return try database.read { conn -> ReferencePicker? in
            guard try conn.tableExists(tableName) else { throw FormStoreError.unknownTable(tableName) }
            let table = try conn.tableInfo(tableName)
            return try Self.picker(table: table, column: column, labelColumn: named, conn)
                .map { try Self.checked($0, form: form, field: field, conn) }
        }
    }

    /// The pickers of every field of the form (not its groups) that is a
    /// single-column foreign key, by field key, read in one transaction with
    /// the form's table read once: what `show` and `list` label.
    ///
    /// - throws: `FormStoreError` as `picker(_:field:)` does.
    public func pickers(_ form: Form) throws -> [String: ReferencePicker] {
        try database.read { conn in
            guard try conn.tableExists(form.tableName) else { throw FormStoreError.unknownTable(form.tableName) }
            let table = try conn.tableInfo(form.tableName)
            let keys = Set(table.foreignKeys.filter { $0.columns.count == 1 }.map { $0.columns[0] })
            var pickers: [String: ReferencePicker] = [:]
            for field in form.fields where field.holdsValue && keys.contains(field.key) {
                guard let picker = try Self.picker(table: table, column: field.key, labelColumn: field.labelColumn, conn) else { continue }
                pickers[field.key] = try Self.checked(picker, form: form, field: field.key, conn)
            }
            return pickers
        }
    }

    /// What a foreign-key field offers: referenced rows whose label (or key)
    /// contains `search` (any case, ASCII), ordered by label, at most `limit`.
    /// An empty list for a field that is no foreign key.
    public func choices(_ form: Form, field: String, search: String? = nil, limit: Int = 20) throws -> [Choice] {
        guard let picker = try picker(form, field: field) else { return [] }
        let key = quoteIdentifier(picker.column)
        let label = picker.labelColumn.map(quoteIdentifier) ?? key
        var sql = "SELECT \(key), \(label) FROM \(picker.quotedTable)"
        var arguments: [DatabaseValue] = []
        if let search, !search.isEmpty {
            // LIKE's wildcards in the text match themselves.
            let escaped = search.replacing("\\", with: "\\\\")
                .replacing("%", with: "\\%").replacing("_", with: "\\_")
            sql += " WHERE \(label) LIKE ? ESCAPE '\\' OR CAST(\(key) AS TEXT) = ?"
            arguments = [.text("%\(escaped)%"), .text(search)]
        }
        sql += " ORDER BY \(label), \(key) LIMIT ?"
        arguments.append(.integer(Int64(max(limit, 0))))
        return try database.read { conn in
            try conn.fetchAll(sql, StatementArguments(arguments)).map { row in
                let value = FieldValue(row[0])
                let shown = FieldValue(row[1])
                return Choice(value, label: picker.labelColumn == nil ? nil : shown.textValue ?? Choice.defaultLabel(for: shown))
            }
        }
    }

    /// The label of the row a foreign-key value refers to; `nil` when the field
    /// is no foreign key, the table has no label column, or no row matches.
    public func referenceLabel(_ form: Form, field: String, value: FieldValue) throws -> String? {
        guard value != .null, let picker = try picker(form, field: field) else { return nil }
        guard case .labelled(let label)? = try referencedRow(picker, value: value) else { return nil }
        return label
    }

    /// The row `value` refers to through `picker`, shown by its label column:
    /// `.missing` when no row has that value (a dangling key); `nil` for
    /// NULL or a picker without a label column. One indexed lookup: callers
    /// showing many rows keep what they found (`show`, `list`).
    public func referencedRow(_ picker: ReferencePicker, value: FieldValue) throws -> ReferencedRow? {
        guard value != .null, let label = picker.labelColumn else { return nil }
        let sql = "SELECT \(quoteIdentifier(label)) FROM \(picker.quotedTable) WHERE \(quoteIdentifier(picker.column)) = ? LIMIT 1"
        return try database.read { conn in
            guard let row = try conn.fetchOne(sql, StatementArguments([DatabaseValue(value)])) else { return .missing }
            let shown = FieldValue(row[0])
            return .labelled(shown.textValue ?? Choice.defaultLabel(for: shown))
        }
    }

    private func tableAndColumn(_ form: Form, _ field: String) throws -> (String, String) {
        if let dot = field.firstIndex(of: "."), let group = form.group(String(field[..<dot])) {
            return (group.tableName, String(field[field.index(after: dot)...]))
        }
        return (form.tableName, field)
    }

    /// The picker of `column` of `table`: the column the spec names as its
    /// label (`labelColumn`), else the inferred one.
    static func picker(table: TableInfo, column: String, labelColumn named: String? = nil,
                       _ conn: Connection) throws -> ReferencePicker? {
        guard let key = table.foreignKeys.first(where: { $0.columns.count == 1 && $0.columns[0] == column }),
              try conn.tableExists(key.destinationTable) else { return nil }
        let referenced = try conn.tableInfo(key.destinationTable)
        let target = key.destinationColumns.first ?? referenced.primaryKey.columns.first ?? referenced.rowIDName ?? "rowid"
        return ReferencePicker(table: referenced.name, column: target,
                               labelColumn: named ?? ReferencePicker.inferredLabel(of: referenced, besides: target))
    }

    /// A field of the form, or `group.field` of a group's rows.
    static func field(_ form: Form, _ path: String) -> Field? {
        if let dot = path.firstIndex(of: "."), let group = form.group(String(path[..<dot])) {
            return group.field(String(path[path.index(after: dot)...]))
        }
        return form.field(path)
    }

    /// The picker, once its label column is known to be a column of the
    /// referenced table: a spec's misspelt `labelColumn` is an error naming it,
    /// not an SQL error at the first lookup.
    static func checked(_ picker: ReferencePicker, form: Form, field: String, _ conn: Connection) throws -> ReferencePicker {
        guard let label = picker.labelColumn, try conn.tableInfo(picker.table).column(label) == nil else { return picker }
        throw FormStoreError.unknownLabelColumn(label, field: field, form: form.name, table: picker.table)
    }

    /// Every `labelColumn` a form's fields name (its groups' too) is a column
    /// of the table the field refers to, and the field is a foreign key.
    /// Run when a form is first mapped, so that a malformed spec fails every
    /// command in one line, not only those showing labels.
    static func checkLabelColumns(_ form: Form, _ conn: Connection) throws {
        var named = form.fields.filter { $0.labelColumn != nil }.map { (form.tableName, $0.key, $0.key) }
        for group in form.groups {
            named += group.fields.filter { $0.labelColumn != nil }.map { (group.tableName, $0.key, "\(group.key).\($0.key)") }
        }
        for (tableName, column, path) in named {
            guard try conn.tableExists(tableName) else { continue }
            let table = try conn.tableInfo(tableName)
            guard let picker = try picker(table: table, column: column, labelColumn: field(form, path)?.labelColumn, conn) else {
                throw FormStoreError.labelColumnWithoutReference(field: path, form: form.name, table: tableName)
            }
            _ = try checked(picker, form: form, field: path, conn)
        }
    }

    /// Runs `write`; when a foreign key refuses it, throws the refusal named
    /// by `checkReferences` (the field, the table, the value) where it can
    /// name it, else SQLite's own. Nothing is looked up unless the write fails.
    static func namingMissingReference<T>(_ mapping: TableMapping, _ values: @autoclosure () -> [String: FieldValue],
                                          _ conn: Connection, _ write: () throws -> T) throws -> T {
        do {
            return try write()
        } catch let error as DatabaseError where error.isForeignKeyViolation {
            try checkReferences(mapping, values(), conn)
            throw error
        }
    }

    /// Refuses the written values of a foreign key that refer to no row,
    /// naming the fields and the table, while foreign keys are enforced (and
    /// not deferred by the schema). A key of several columns is checked when
    /// all of them are written and none is NULL (a NULL in one satisfies it).
    static func checkReferences(_ mapping: TableMapping, _ values: [String: FieldValue], _ conn: Connection,
                                evenWhenDeferred: Bool = false) throws {
        // A deferred key is the schema asking for the check at the commit: SQLite's, there.
        // So is a transaction that left its checks to the commit (an import's rows that wait).
        guard conn.configuration.foreignKeys, !mapping.table.foreignKeys.isEmpty,
              evenWhenDeferred || !(mapping.defersForeignKeys || conn.foreignKeyChecksDeferred)
        else { return }
        for key in mapping.table.foreignKeys {
            let given = key.columns.compactMap { values[$0] }
            guard given.count == key.columns.count, !given.contains(.null), try conn.tableExists(key.destinationTable) else { continue }
            let referenced = try conn.tableInfo(key.destinationTable)
            let targets = !key.destinationColumns.isEmpty ? key.destinationColumns
                : key.columns.count == 1 ? [referenced.primaryKey.columns.first ?? referenced.rowIDName ?? "rowid"]
                : referenced.primaryKey.columns
            guard targets.count == key.columns.count else { continue }
            let sql = "SELECT 1 FROM \(quoteIdentifier(referenced.name)) WHERE "
                + targets.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: " AND ") + " LIMIT 1"
            let arguments = zip(key.columns, given).map { mapping.coding($0).encode($1) }
            guard try conn.fetchOne(sql, StatementArguments(arguments)) == nil else { continue }
            throw FormStoreError.missingReference(columns: key.columns, values: given, table: referenced.name, targets: targets)
        }
    }
}
