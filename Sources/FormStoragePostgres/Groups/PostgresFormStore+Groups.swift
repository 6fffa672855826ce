public import FormCore
import Synchronization

/// Repeating groups over child tables on PostgreSQL, as `FormStore` keeps
/// them on SQLite: a record is loaded with its rows, and a save writes the
/// parent and every row's insert, update, delete and position in one
/// transaction, or nothing.
///
/// Each changed row is checked against the values the session loaded inside
/// the transaction, the parent's rows locked (`FOR UPDATE`) until COMMIT: a
/// row someone else changed or deleted meanwhile is a conflict named by row
/// and column (`lines[7].amount`), and nothing is written. Only changed
/// columns are written, each in its column's own type (docs/fidelity.md).
extension PostgresFormStore: GroupBackend {
    public func insert(_ form: Form, values: [String: FieldValue], groups: [GroupChanges],
                       deletingDraft: String?, attribution: ChangeAttribution) throws -> StoredRecord {
        let mapping = try mapping(for: form)
        let children = try childMappings(form, parent: mapping)
        let (sql, parameters) = try mapping.insertStatement(values)
        let history = historyWriter(mapping, attribution)
        return try pool.write { conn in
            var record = try Self.insertRow(mapping, sql: sql, parameters: parameters, values: values, history: history, conn)
            for change in groups {
                guard let child = children.first(where: { $0.group.key == change.group }) else { continue }
                try child.write(change, parent: record.key, stored: [:], history: history, conn)
            }
            if let deletingDraft { try Self.deleteDraft(deletingDraft, conn) }
            record.groups = try Self.rows(children, of: record.key, conn)
            return record
        }
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       groups: [GroupChanges], deletingDraft: String?, attribution: ChangeAttribution) throws -> UpdateResult {
        let mapping = try mapping(for: form)
        let children = try childMappings(form, parent: mapping)
        let keyParameters = try mapping.keyParameters(key)
        let history = historyWriter(mapping, attribution)
        return try pool.write { conn -> UpdateResult in
            // Every row is checked, locked, before anything is written.
            var stored: [String: [RecordKey: StoredRecord]] = [:]
            var conflicts: [FieldConflict] = []
            for change in groups {
                guard let child = children.first(where: { $0.group.key == change.group }) else { continue }
                let rows = try child.lockedRows(of: key, conn)
                stored[change.group] = rows
                for row in change.updates + change.deletes {
                    conflicts += row.conflicts(group: change.group, stored: rows[row.key]?.values)
                }
            }
            guard conflicts.isEmpty else {
                // The parent's own conflicts are named with them: settled apart, the rows' choices were
                // then saved over a field someone else had changed, never asked about.
                let current = try conn.execute(mapping.selectByKeySQL, keyParameters)
                guard current.rowCount == 1 else { return .conflict(conflicts) }
                let before = mapping.record(current, row: 0)
                let parent = base.conflicts(changes: changes, stored: before.slotValues)
                return .conflict(parent + conflicts)
            }
            let parent = try Self.updateRow(mapping, keyParameters, changes: changes, base: base, history: history, conn)
            guard case .saved(var record) = parent else { return parent }
            for change in groups {
                guard let child = children.first(where: { $0.group.key == change.group }) else { continue }
                try child.write(change, parent: record.key, stored: stored[change.group] ?? [:], history: history, conn)
            }
            if let deletingDraft { try Self.deleteDraft(deletingDraft, conn) }
            record.groups = try Self.rows(children, of: record.key, conn)
            return .saved(record)
        }
    }

    public func insert(_ form: Form, values: [String: FieldValue], groups: [GroupChanges],
                       deletingDraft: String?, attribution: ChangeAttribution) async throws -> StoredRecord {
        try await Self.onServerQueue {
            try self.insert(form, values: values, groups: groups, deletingDraft: deletingDraft, attribution: attribution)
        }
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       groups: [GroupChanges], deletingDraft: String?, attribution: ChangeAttribution) async throws -> UpdateResult {
        try await Self.onServerQueue {
            try self.update(form, key: key, changes: changes, base: base, groups: groups,
                            deletingDraft: deletingDraft, attribution: attribution)
        }
    }

    /// The record with its rows, read in one transaction so the rows are the parent's as of one moment.
    func loadWithGroups(_ form: Form, _ mapping: PostgresTableMapping, _ parameters: [String?]) throws -> StoredRecord? {
        let children = try childMappings(form, parent: mapping)
        return try pool.write { conn -> StoredRecord? in
            let result = try conn.execute(mapping.selectByKeySQL, parameters)
            guard result.rowCount == 1 else { return nil }
            var record = mapping.record(result, row: 0)
            record.groups = try Self.rows(children, of: record.key, conn)
            return record
        }
    }

    /// The rows of every group of the parent with `key`, in their order.
    static func rows(_ children: [PostgresChildMapping], of key: RecordKey, _ conn: PostgresConnection) throws
        -> [String: [[String: FieldValue]]] {
        var groups: [String: [[String: FieldValue]]] = [:]
        for child in children { groups[child.group.key] = try child.rows(of: key, conn) }
        return groups
    }

    /// The child mapping of each group of `form` (the parent's `mapping`):
    /// read from `pg_catalog` once per form, then kept with the form they were made for.
    ///
    /// - throws: `PostgresStoreError` for a missing child table or column, or a
    ///   foreign key to the parent that is missing, ambiguous or of the wrong width.
    func childMappings(_ form: Form, parent: PostgresTableMapping) throws -> [PostgresChildMapping] {
        guard !form.groups.isEmpty else { return [] }
        if let cached = childMappingCache.withLock({ $0[form.name] }), cached.form == form { return cached.children }
        let children = try form.groups.map { group -> PostgresChildMapping in
            let (table, constraints) = try pool.read { conn in
                guard let table = try catalog.table(group.tableName, conn) else {
                    throw PostgresStoreError(reason: .unknownTable, message: group.missingTable(form: form.name))
                }
                return (table, try catalog.constraints(of: group.tableName, conn))
            }
            let foreignKey = try Self.foreignKey(of: group, in: table, constraints: constraints, parent: parent)
            if let order = group.orderColumn, table.column(order) == nil {
                throw PostgresStoreError(reason: .unknownColumn, message: group.missingColumn(order, as: "orderColumn",
                                                                                              form: form.name, table: table.name))
            }
            var child = PostgresFormInference.form(for: table, constraints: constraints)
            child.name = "\(form.name).\(group.key)"
            child.table = table.name
            let replaced = Set(group.fields.map(\.key))
            let others = child.fields.filter { !replaced.contains($0.key) }
            child.sections = [Section(fields: group.fields.filter { $0.isStored && $0.holdsValue } + others)]
            if !group.keyFields.isEmpty { child.primaryKey = group.keyFields }
            let selfReferring = table.name == parent.table.name
            return PostgresChildMapping(group: group, mapping: try mapping(for: child), foreignKey: foreignKey,
                                        parentKey: selfReferring ? parent.keyColumns : [])
        }
        childMappingCache.withLock { $0[form.name] = (form, children) }
        return children
    }

    /// The group's foreign key, or the child table's one foreign key to the parent's table.
    static func foreignKey(of group: RowGroup, in table: PostgresTable, constraints: PostgresConstraints,
                           parent: PostgresTableMapping) throws -> [String] {
        if !group.foreignKey.isEmpty {
            for column in group.foreignKey where table.column(column) == nil {
                throw PostgresStoreError(reason: .unknownColumn, message: group.missingColumn(column, as: "foreignKey",
                                                                                              form: parent.form.name, table: table.name))
            }
            guard group.foreignKey.count == parent.keyColumns.count else {
                throw PostgresStoreError.badKey("group \(group.key): foreignKey names \(group.foreignKey.count) columns, "
                                                + "the key of \(parent.table.name) has \(parent.keyColumns.count)")
            }
            return group.foreignKey
        }
        let referring = constraints.foreignKeys.filter { $0.refers(to: parent.table.name) }
        guard referring.count == 1, let only = referring.first else {
            throw PostgresStoreError.badKey("group \(group.key): \(table.name) has \(referring.count) foreign keys to "
                                            + "\(parent.table.name); name one with \"foreignKey\"")
        }
        let targets = only.destinationColumns.isEmpty ? parent.keyColumns : only.destinationColumns
        return parent.keyColumns.compactMap { key in targets.firstIndex(of: key).map { only.columns[$0] } }
    }
}
