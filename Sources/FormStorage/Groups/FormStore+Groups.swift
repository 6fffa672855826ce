public import FormCore

/// Repeating groups over child tables: a record is loaded with its rows, and a
/// save writes the parent and every row's insert, update, delete and position
/// in one transaction, or nothing.
///
/// Each changed row is checked against the values the session loaded, inside
/// the transaction: a row someone else changed or deleted meanwhile is a
/// conflict named by row and column (`lines[7].amount`), and nothing is
/// written. Rows are written like records (docs/fidelity.md): only changed
/// columns, in each column's own form.
extension FormStore: GroupBackend {
    func loadWithGroups(_ form: Form, _ mapping: TableMapping, _ arguments: [DatabaseValue]) throws -> StoredRecord? {
        let children = try childMappings(form, parent: mapping)
        return try database.read { conn in
            guard var record = try Self.load(mapping, arguments, conn) else { return nil }
            record.groups = try Self.loadRows(children, of: record.key, conn)
            return record
        }
    }

    public func insert(_ form: Form, values: [String: FieldValue], groups: [GroupChanges],
                       deletingDraft: String?, attribution: ChangeAttribution) throws -> StoredRecord {
        let mapping = try mapping(for: form)
        let children = try childMappings(form, parent: mapping)
        let (sql, arguments) = try mapping.insertStatement(mapping.columnValues(values, over: [:]))
        let history = try historyWriter(mapping, attribution)
        let schema = ownSchema
        return try database.write { conn in
            var record = try Self.insertRow(mapping, values, sql: sql, arguments: arguments, history: history, conn)
            _ = try Self.write(groups, children, parent: record.key, history: history, conn)
            if let deletingDraft { try Self.deleteDraft(deletingDraft, schema: schema, conn) }
            record.groups = try Self.loadRows(children, of: record.key, conn)
            return record
        }
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       groups: [GroupChanges], deletingDraft: String?, attribution: ChangeAttribution) throws -> UpdateResult {
        let mapping = try mapping(for: form)
        let children = try childMappings(form, parent: mapping)
        let keyArguments = try mapping.keyArguments(key)
        let history = try historyWriter(mapping, attribution)
        let schema = ownSchema
        return try database.write { conn -> UpdateResult in
            // Every row is checked before anything is written.
            var conflicts: [FieldConflict] = []
            for change in groups {
                guard let child = children.first(where: { $0.group.key == change.group }) else { continue }
                let stored = try Self.storedRows(child, of: key, conn)
                for row in change.updates + change.deletes {
                    conflicts += row.conflicts(group: change.group, stored: stored[row.key]?.0.values)
                }
            }
            guard conflicts.isEmpty else {
                // The parent's own conflicts are named with them: settled apart, the rows' choices were
                // then saved over a field someone else had changed, never asked about.
                let parent = try Self.readRow(mapping, keyArguments, conn).map { before in
                    base.conflicts(changes: changes, stored: before.record.slotValues)
                } ?? []
                return .conflict(parent + conflicts)
            }
            let parent = try Self.updateRow(mapping, keyArguments, changes: changes, base: base, history: history, conn)
            guard case .saved(var record) = parent else { return parent }
            let rowForms = try Self.write(groups, children, parent: record.key, history: history, conn)
            if !rowForms.isEmpty {
                record.writtenForms = record.writtenForms ?? WrittenForms(before: [:], after: [:])
                record.writtenForms?.rows = rowForms
            }
            if let deletingDraft { try Self.deleteDraft(deletingDraft, schema: schema, conn) }
            record.groups = try Self.loadRows(children, of: record.key, conn)
            return .saved(record)
        }
    }

    public func insert(_ form: Form, values: [String: FieldValue], groups: [GroupChanges],
                       deletingDraft: String?, attribution: ChangeAttribution) async throws -> StoredRecord {
        try await database.perform(.writing) {
            try self.insert(form, values: values, groups: groups, deletingDraft: deletingDraft, attribution: attribution)
        }
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       groups: [GroupChanges], deletingDraft: String?, attribution: ChangeAttribution) async throws -> UpdateResult {
        try await database.perform(.writing) {
            try self.update(form, key: key, changes: changes, base: base, groups: groups, deletingDraft: deletingDraft, attribution: attribution)
        }
    }

    /// Deletes, updates and inserts the rows of each group, in that order (a
    /// key freed by a deleted row may be taken by a new one). With the
    /// parent's `history`, each row inserted or updated is recorded as a save
    /// of its own table's record (`HistoryWriter.forRows(of:)`). A row's
    /// `GroupChanges.storedForms` give the forms its values are written in.
    ///
    /// - returns: by group and row key, the stored forms of each row updated
    ///   or deleted, as they were (`WrittenForms.rows`).
    @discardableResult
    static func write(_ groups: [GroupChanges], _ children: [ChildMapping], parent: RecordKey,
                      history: HistoryWriter?, _ conn: Connection) throws -> [String: [RecordKey: [String: FieldValue]]] {
        var replaced: [String: [RecordKey: [String: FieldValue]]] = [:]
        for change in groups {
            guard let child = children.first(where: { $0.group.key == change.group }) else { continue }
            let mapping = child.mapping
            let rowHistory = history?.forRows(of: mapping)
            let stored = try storedRows(child, of: parent, conn)
            func keep(_ key: RecordKey) {
                if let (_, values) = stored[key] { replaced[change.group, default: [:]][key] = values.mapValues(FieldValue.init) }
            }
            for row in change.deletes {
                keep(row.key)
                let sql = "DELETE FROM \(quoteIdentifier(mapping.table.name)) WHERE \(mapping.whereKey)"
                try conn.cachedStatement(sql).execute(StatementArguments(try mapping.keyArguments(row.key)))
                try checkOneRowChanged(conn, mapping, expecting: stored[row.key] == nil ? nil : "delete")
            }
            for row in change.updates {
                guard let (record, values) = stored[row.key] else { continue }
                keep(row.key)
                let key = try mapping.keyArguments(row.key)
                // Each value in the form given for it where that holds it (an undo's), else the row's own.
                let like = values.merging((change.storedForms[row.key] ?? [:]).mapValues(DatabaseValue.init)) { _, given in given }
                if let statement = try mapping.updateStatement(mapping.columnValues(row.changes, over: record.values),
                                                           key: key, like: like) {
                    try checkReferences(mapping, row.changes, conn)
                    try conn.cachedStatement(statement.sql).execute(statement.arguments)
                    try checkOneRowChanged(conn, mapping, expecting: "update")
                    if let rowHistory, let after = try loadRow(mapping, key, conn) {
                        try rowHistory.record(before: (record, values), after: after, conn)
                    }
                }
            }
            for row in change.inserts {
                var values = row.merging(child.foreignKeyValues(parent)) { _, parent in parent }
                // A key column left empty is SQLite's to assign.
                for column in mapping.keyColumns where values[column] == .null { values[column] = nil }
                // A row put back by an undo: in the forms it was stored in before.
                let named = mapping.keyColumns.allSatisfy { values[$0] != nil }
                    ? RecordKey(columns: mapping.keyColumns, values: mapping.keyColumns.map { values[$0]! }) : nil
                let given = named.flatMap { change.storedForms[$0] }
                let (sql, arguments) = try mapping.insertStatement(mapping.columnValues(values, over: [:]),
                                                                   like: (given ?? [:]).mapValues(DatabaseValue.init))
                try checkReferences(mapping, values, conn)
                do {
                    try conn.cachedStatement(sql).execute(arguments)
                } catch let error as DatabaseError where error.isConstraint {
                    // A key another parent's row holds: said so, where SQLite's UNIQUE refusal named no row.
                    // Looked for only once refused: an insert that goes in reads nothing more.
                    if let named, try readRow(mapping, try mapping.keyArguments(named), conn) != nil {
                        throw FormStoreError.badKey(GroupChanges.keyTaken(mapping.table.name, named))
                    }
                    throw error
                }
                try checkOneRowChanged(conn, mapping, expecting: "insert")
                if let rowHistory, let after = try loadRow(mapping, insertedKey(mapping, values, conn), conn) {
                    try rowHistory.record(before: nil, after: after, conn)
                }
            }
        }
        return replaced
    }
}
