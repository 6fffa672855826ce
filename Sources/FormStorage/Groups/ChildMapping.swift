import FormCore

/// A repeating group bound to a child table: the table's mapping (through its
/// inferred form, the group's fields taking the place of their columns), the
/// columns referring to the parent, and the SQL reading one parent's rows.
struct ChildMapping {
    let group: RowGroup
    let mapping: TableMapping
    /// The child's columns referring to the parent's key, in the parent key's order.
    let foreignKey: [String]
    let selectRowsSQL: String
    /// The parent's key columns when the child table is the parent's own (a
    /// self-reference, `boss_id`): the parent row is left out of its rows, or
    /// a row referring to itself would be edited twice in one save, as the
    /// record and as its own child, and one edit would silently win.
    var parentKey: [String] = []

    /// The foreign key's values for the parent with `key`, in the child columns' form.
    func foreignKeyValues(_ key: RecordKey) -> [String: FieldValue] {
        Dictionary(zip(foreignKey, key.values).map { ($0, $1) }, uniquingKeysWith: { a, _ in a })
    }

    func arguments(_ key: RecordKey) -> StatementArguments {
        StatementArguments(zip(foreignKey, key.values).map { mapping.coding($0).encode($1) }
                           + zip(parentKey, key.values).map { mapping.coding($0).encode($1) })
    }
}

extension FormStore {
    /// The child mapping of each group of `form` (the parent's `mapping`).
    func childMappings(_ form: Form, parent: TableMapping) throws -> [ChildMapping] {
        try form.groups.map { group in
            // With the parent key's collations: each key column is compared by its parent
            // column's, as SQLite matches the key (a COLLATE NOCASE 'cd' has its 'CD' rows too).
            let (table, collations) = try database.read { conn -> (TableInfo, [String]) in
                guard try conn.tableExists(group.tableName) else {
                    throw FormStoreError(reason: .unknownTable, message: group.missingTable(form: form.name))
                }
                return (try conn.tableInfo(group.tableName),
                        parent.keyColumns.map { conn.collation(of: $0, in: parent.table.name) })
            }
            let foreignKey = try Self.foreignKey(of: group, in: table, parent: parent)
            if let order = group.orderColumn, table.column(order) == nil {
                throw FormStoreError(reason: .unknownColumn, message: group.missingColumn(order, as: "orderColumn",
                                                                                          form: form.name, table: table.name))
            }
            var child = FormInference.form(for: table)
            child.name = "\(form.name).\(group.key)"
            child.table = table.name
            let replaced = Set(group.fields.map(\.key))
            let others = child.fields.filter { !replaced.contains($0.key) }
            child.sections = [Section(fields: group.fields.filter { $0.isStored && $0.holdsValue } + others)]
            if !group.keyFields.isEmpty { child.primaryKey = group.keyFields }
            let mapping = try mapping(for: child)
            let order = ([group.orderColumn].compactMap { $0 } + mapping.keyColumns).map(quoteIdentifier).joined(separator: ", ")
            var filter = zip(foreignKey.indices, foreignKey).map { index, column in
                collated(column, by: index < collations.count ? collations[index] : "BINARY") + " = ?"
            }.joined(separator: " AND ")
            let selfReferring = table.name.lowercased() == parent.table.name.lowercased()
            let parentKey = selfReferring ? parent.keyColumns : []
            if selfReferring {
                filter += " AND NOT (" + parent.keyColumns.map { quoteIdentifier($0) + " IS ?" }.joined(separator: " AND ") + ")"
            }
            return ChildMapping(group: group, mapping: mapping, foreignKey: foreignKey,
                                selectRowsSQL: "\(mapping.selectSQL) WHERE \(filter) ORDER BY \(order)", parentKey: parentKey)
        }
    }

    /// The group's foreign key, or the child table's one foreign key to the parent's table.
    static func foreignKey(of group: RowGroup, in table: TableInfo, parent: TableMapping) throws -> [String] {
        if !group.foreignKey.isEmpty {
            for column in group.foreignKey where table.column(column) == nil {
                throw FormStoreError(reason: .unknownColumn, message: group.missingColumn(column, as: "foreignKey",
                                                                                          form: parent.form.name, table: table.name))
            }
            guard group.foreignKey.count == parent.keyColumns.count else {
                throw FormStoreError.badKey("group \(group.key): foreignKey names \(group.foreignKey.count) columns, the key of \(parent.table.name) has \(parent.keyColumns.count)")
            }
            return group.foreignKey
        }
        let referring = table.foreignKeys.filter { $0.destinationTable.lowercased() == parent.table.name.lowercased() }
        guard referring.count == 1, let only = referring.first else {
            throw FormStoreError.badKey("group \(group.key): \(table.name) has \(referring.count) foreign keys to \(parent.table.name); name one with \"foreignKey\"")
        }
        // A foreign key naming no columns refers to the parent's primary key.
        let targets = only.destinationColumns.isEmpty ? parent.keyColumns : only.destinationColumns
        return parent.keyColumns.compactMap { key in targets.firstIndex(of: key).map { only.columns[$0] } }
    }

    /// The rows of every group of the parent record with `key`, in their order, as model values.
    static func loadRows(_ children: [ChildMapping], of key: RecordKey, _ conn: Connection) throws
        -> [String: [[String: FieldValue]]] {
        try readRows(children, of: key, conn) { child, statement in child.mapping.record(from: statement).values }
    }

    /// The rows of every group of the parent record with `key`, in their order, each read by `read`
    /// while its statement is on it (as model values, or as stored for an export).
    static func readRows(_ children: [ChildMapping], of key: RecordKey, _ conn: Connection,
                         _ read: (ChildMapping, Statement) -> [String: FieldValue]) throws -> [String: [[String: FieldValue]]] {
        var groups: [String: [[String: FieldValue]]] = [:]
        for child in children {
            let statement = try conn.cachedStatement(child.selectRowsSQL)
            try statement.bind(child.arguments(key))
            defer { statement.reset() }
            var rows: [[String: FieldValue]] = []
            while try statement.step() { rows.append(read(child, statement)) }
            groups[child.group.key] = rows
        }
        return groups
    }

    /// Each stored child row of the parent with `key`, by its key: the record and its stored column values.
    static func storedRows(_ child: ChildMapping, of key: RecordKey, _ conn: Connection) throws
        -> [RecordKey: (StoredRecord, [String: DatabaseValue])] {
        let statement = try conn.cachedStatement(child.selectRowsSQL)
        try statement.bind(child.arguments(key))
        defer { statement.reset() }
        var rows: [RecordKey: (StoredRecord, [String: DatabaseValue])] = [:]
        while try statement.step() {
            let record = child.mapping.record(from: statement)
            rows[record.key] = (record, child.mapping.storedValues(from: statement))
        }
        return rows
    }
}
