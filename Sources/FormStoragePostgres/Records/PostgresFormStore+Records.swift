public import FormCore

/// Records: `FormBackend` for PostgreSQL.
extension PostgresFormStore {
    public func load(_ form: Form, key: RecordKey) throws -> StoredRecord? {
        let mapping = try mapping(for: form)
        let parameters = try mapping.keyParameters(key)
        guard form.groups.isEmpty else { return try loadWithGroups(form, mapping, parameters) }
        let result = try pool.read { try $0.execute(mapping.selectByKeySQL, parameters) }
        // A key may name several rows where nothing makes it unique: a table and the tables that
        // inherit from it, a view. Said, as on SQLite, where it read as no record at all.
        if result.rowCount > 1 {
            throw PostgresStoreError.badKey("the key names more than one row of '\(mapping.table.name)': "
                                            + "they cannot be told apart by it")
        }
        return result.rowCount == 1 ? mapping.record(result, row: 0) : nil
    }

    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?) throws -> StoredRecord {
        try insert(form, values: values, deletingDraft: deletingDraft, attribution: .library)
    }

    /// Inserts the record and, in the same transaction, its history (`PostgresFormStore+History.swift`).
    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?,
                       attribution: ChangeAttribution) throws -> StoredRecord {
        let mapping = try mapping(for: form)
        let (sql, parameters) = try mapping.insertStatement(values)
        let history = historyWriter(mapping, attribution)
        return try namingRefusal(mapping, values) {
            try pool.write { conn in
                let record = try Self.insertRow(mapping, sql: sql, parameters: parameters, values: values, history: history, conn)
                if let deletingDraft { try Self.deleteDraft(deletingDraft, conn) }
                return record
            }
        }
    }

    /// Runs `write`; a foreign key's or a CHECK's refusal is said by what
    /// was refused (`PostgresTableMapping.namedRefusal`), once the
    /// transaction it failed is over.
    func namingRefusal<T>(_ mapping: PostgresTableMapping, _ values: [String: FieldValue],
                          _ write: () throws -> T) throws -> T {
        do {
            return try write()
        } catch let error as PostgresError where error.isForeignKeyViolation || error.isCheckViolation || error.isUniqueViolation {
            throw try pool.read { try mapping.namedRefusal(error, of: values, $0) } ?? error
        }
    }

    /// Inserts one record inside the caller's transaction and records its history.
    static func insertRow(_ mapping: PostgresTableMapping, sql: String, parameters: [String?], values: [String: FieldValue],
                          history: PostgresHistoryWriter, _ conn: PostgresConnection) throws -> StoredRecord {
        // RETURNING reads back what the server filled in: an identity or serial key, defaults.
        let result = try mapping.rowLeft(by: conn.execute(sql, parameters), conn)
        guard result.rowCount == 1 else { throw PostgresStoreError.notOneRow(result.rowCount, table: mapping.table.name, write: "insert") }
        let record = mapping.record(result, row: 0)
        try mapping.checkStoredAsWritten(values, saved: record)
        try history.record(before: nil, after: mapping.storedTexts(result, row: 0), key: record.key, conn)
        return record
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?) throws -> UpdateResult {
        try update(form, key: key, changes: changes, base: base, deletingDraft: deletingDraft, attribution: .library)
    }

    /// Updates the record and, in the same transaction, records its history (`PostgresFormStore+History.swift`).
    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?, attribution: ChangeAttribution) throws -> UpdateResult {
        let mapping = try mapping(for: form)
        let keyParameters = try mapping.keyParameters(key)
        let history = historyWriter(mapping, attribution)
        return try namingRefusal(mapping, changes) {
            try pool.write { conn -> UpdateResult in
                let result = try Self.updateRow(mapping, keyParameters, changes: changes, base: base, history: history, conn)
                if case .saved = result, let deletingDraft { try Self.deleteDraft(deletingDraft, conn) }
                return result
            }
        }
    }

    /// Checks `base` against the row and writes `changes` to it, inside the
    /// caller's transaction: the row stays locked until COMMIT, so nobody
    /// writes it between this check and the update.
    static func updateRow(_ mapping: PostgresTableMapping, _ keyParameters: [String?], changes: [String: FieldValue],
                          base: SaveBase, history: PostgresHistoryWriter, _ conn: PostgresConnection) throws -> UpdateResult {
        let current = try conn.execute(mapping.selectByKeyForUpdateSQL, keyParameters)
        guard current.rowCount == 1 else {
            // Read, but not to be changed by this role: said so, not "deleted".
            if mapping.table.hasRowSecurity, try conn.execute(mapping.selectByKeySQL, keyParameters).rowCount == 1 {
                throw PostgresStoreError.refusedByRowSecurity("change", table: mapping.table.name)
            }
            return .notFound
        }
        let stored = mapping.record(current, row: 0)
        // Compared by value whether or not the version moved (see `FormStore.updateRow`).
        let conflicts = base.conflicts(changes: changes, stored: stored.slotValues)
        if !conflicts.isEmpty { return .conflict(conflicts) }
        // A jsonb document typed in another spelling of what is stored (`{"a":1}` over `{"a": 1}`) is
        // no change: the server would store the same document, and the write would be a save of nothing.
        let changes = try mapping.droppingSameDocuments(changes, stored: current, conn)
        guard !changes.isEmpty else { return .saved(stored) }
        // The stored documents matter only to a JSON path's change: no dictionary of the row otherwise.
        let documents = mapping.jsonPaths.isEmpty ? [:] : stored.values
        guard let statement = try mapping.updateStatement(changes, key: keyParameters, over: documents) else { return .saved(stored) }
        let result = try mapping.rowLeft(by: conn.execute(statement.sql, statement.parameters), conn)
        guard result.rowCount == 1 else {
            throw PostgresStoreError.notOneRow(result.rowCount, table: mapping.table.name, write: "update")
        }
        let saved = mapping.record(result, row: 0)
        try mapping.checkStoredAsWritten(changes, saved: saved)
        try history.record(before: mapping.storedTexts(current, row: 0), after: mapping.storedTexts(result, row: 0),
                           key: saved.key, conn)
        return .saved(saved)
    }

    public func delete(_ form: Form, key: RecordKey, deletingDraft: String?) throws -> Bool {
        let mapping = try mapping(for: form)
        let parameters = try mapping.keyParameters(key)
        return try pool.write { conn in
            let changed = try conn.execute(mapping.deleteSQL, parameters).changedRows
            guard changed <= 1 else { throw PostgresStoreError.notOneRow(changed, table: mapping.table.name) }
            // None deleted: no such record, or a trigger dropped the delete of one there.
            if changed == 0, try conn.execute(mapping.selectByKeySQL, parameters).rowCount == 1 {
                if mapping.table.hasRowSecurity { throw PostgresStoreError.refusedByRowSecurity("delete", table: mapping.table.name) }
                throw PostgresStoreError.notOneRow(0, table: mapping.table.name, write: "delete")
            }
            if let deletingDraft { try Self.deleteDraft(deletingDraft, conn) }
            return changed == 1
        }
    }
}
