public import FormCore

/// Records: `FormBackend` for SQLite.
extension FormStore {
    public func load(_ form: Form, key: RecordKey) throws -> StoredRecord? {
        // The mapping read in place from the cache's reference, not copied.
        let cached = try cachedMapping(for: form)
        let arguments = try cached.mapping.keyArguments(key)
        guard !cached.hasGroups else { return try loadWithGroups(form, cached.mapping, arguments) }
        // One SELECT is its own consistent snapshot: no transaction needed around it.
        return try database.readWithoutTransaction { conn in try Self.load(cached.mapping, arguments, conn) }
    }

    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?) throws -> StoredRecord {
        try insert(form, values: values, deletingDraft: deletingDraft, attribution: .library)
    }

    /// Inserts the record and, in the same transaction, its history (`FormStore+History.swift`).
    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?,
                       attribution: ChangeAttribution) throws -> StoredRecord {
        try insert(form, values: values, storedForms: [:], deletingDraft: deletingDraft, attribution: attribution)
    }

    /// `insert(_:values:deletingDraft:attribution:)`, each value written as
    /// `storedForms` gives it where that holds it (`HistoryBackend`).
    public func insert(_ form: Form, values: [String: FieldValue], storedForms: [String: FieldValue], deletingDraft: String?,
                       attribution: ChangeAttribution) throws -> StoredRecord {
        try database.write(try insertion(form, values: values, storedForms: storedForms, deletingDraft: deletingDraft,
                                         attribution: attribution))
    }

    /// An insert's preparation, done outside the transaction; returns its statements, for inside one.
    func insertion(_ form: Form, values: [String: FieldValue], storedForms: [String: FieldValue] = [:], deletingDraft: String?,
                   attribution: ChangeAttribution) throws -> (Connection) throws -> StoredRecord {
        // The cache's reference, held by the statements below, not a copy of the mapping.
        let cached = try cachedMapping(for: form)
        let (sql, arguments) = try cached.mapping.insertStatement(cached.mapping.columnValues(values, over: [:]),
                                                             like: storedForms.mapValues(DatabaseValue.init))
        let history = try historyWriter(cached, attribution)
        let schema = ownSchema
        return { conn in
            try conn.holdingMainSchemaVersion {
                let record = try Self.insertRow(cached.mapping, values, sql: sql, arguments: arguments, history: history, conn)
                if let deletingDraft { try Self.deleteDraft(deletingDraft, schema: schema, conn) }
                return record
            }
        }
    }

    /// Inserts one row and reads it back, inside the caller's transaction,
    /// recording it in `history` when given.
    static func insertRow(_ mapping: TableMapping, _ values: [String: FieldValue], sql: String,
                          arguments: StatementArguments, history: HistoryWriter? = nil,
                          _ conn: Connection) throws -> StoredRecord {
        try checkReferences(mapping, values, conn)
        try conn.cachedStatement(sql).execute(arguments)
        try checkOneRowChanged(conn, mapping, expecting: "insert")
        // A view without a key (written through its INSTEAD OF trigger) has no row to read
        // back by key: the record is what was written, and there is no history of it.
        guard !mapping.keyColumns.isEmpty else {
            return StoredRecord(key: RecordKey(columns: [], values: []), values: values)
        }
        guard let row = try Self.readRow(mapping, insertedKey(mapping, values, conn), conn) else {
            throw FormStoreError.badKey("the new record in \(mapping.table.name) could not be read back")
        }
        try history?.record(before: nil, after: row, conn)
        return row.record
    }

    /// The key of the row just inserted with `values`: the values' own, else the row id SQLite gave it.
    static func insertedKey(_ mapping: TableMapping, _ values: [String: FieldValue], _ conn: Connection) -> [DatabaseValue] {
        if mapping.keyColumns.allSatisfy({ (values[$0] ?? .null) != .null }) {
            return mapping.keyColumns.map { mapping.coding($0).encode(values[$0]!) }
        }
        return [.integer(conn.lastInsertedRowID)]
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?) throws -> UpdateResult {
        try update(form, key: key, changes: changes, base: base, deletingDraft: deletingDraft, attribution: .library)
    }

    /// Updates the record and, in the same transaction, records its history (`FormStore+History.swift`).
    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?, attribution: ChangeAttribution) throws -> UpdateResult {
        try database.write(try updating(form, key: key, changes: changes, base: base, deletingDraft: deletingDraft,
                                        attribution: attribution))
    }

    /// An update's preparation, done outside the transaction; returns its statements, for inside one.
    func updating(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                  deletingDraft: String?, attribution: ChangeAttribution) throws -> (Connection) throws -> UpdateResult {
        // The cache's reference, held by the statements below, not a copy of the mapping.
        let cached = try cachedMapping(for: form)
        let keyArguments = try cached.mapping.keyArguments(key)
        let history = try historyWriter(cached, attribution)
        let schema = ownSchema
        return { conn -> UpdateResult in
            try conn.holdingMainSchemaVersion {
                let result = try Self.updateRow(cached.mapping, keyArguments, changes: changes, base: base,
                                                history: history, conn)
                if case .saved = result, let deletingDraft {
                    try Self.deleteDraft(deletingDraft, schema: schema, conn)
                    // The draft's row is not the record's: the row saved stays reusable (`SavedRow`).
                    conn.savedRowStillStands()
                }
                return result
            }
        }
    }

    /// Checks one row against `base` and updates it, inside the caller's
    /// transaction, recording the change in `history` when given; a conflict
    /// writes nothing.
    static func updateRow(_ mapping: TableMapping, _ keyArguments: [DatabaseValue], changes: [String: FieldValue],
                          base: SaveBase, history: HistoryWriter? = nil, _ conn: Connection) throws -> UpdateResult {
        // Inside BEGIN IMMEDIATE: nobody can write between this read and the update.
        // Its record holds only what the checks below read (`rowToUpdate`).
        guard let before = try Self.readRowToUpdate(mapping, keyArguments, changes: changes, conn) else {
            return .notFound
        }
        // Compared by value whether or not the version moved: a writer that changes the row and not
        // its version (another application, a hand edit) would otherwise be saved over unasked.
        let conflicts = base.conflicts(changes: changes, stored: before.record.slotValues)
        if !conflicts.isEmpty { return .conflict(conflicts) }
        // A JSON path's change is written into its column's document as stored.
        let columnChanges = mapping.jsonPaths.isEmpty ? changes : try mapping.columnValues(changes, over: before.record.values)
        let after: StoredRow?
        var forms: WrittenForms?
        if let statement = try mapping.updateStatement(columnChanges, key: keyArguments, over: before,
                                                   storedForms: base.storedForms) {
            forms = mapping.writtenForms(of: changes, before: before, written: statement.written, values: statement.values)
            try checkReferences(mapping, changes, conn)
            // Asked before the update writes: the row as the last save left it, if nothing changed since
            // (`SavedRow`). Only for a row read in part, whose update changes nothing but what it writes.
            var last = before.isWhole ? nil : conn.takeRecordLeftByLastSave(mapping.identity, key: keyArguments)
            try conn.cachedStatement(statement.sql).execute(statement.arguments)
            try Self.checkOneRowChanged(conn, mapping, expecting: "update")
            var made: StoredRow?
            // Moved, not copied, into the row it becomes: held once, it is written in place.
            if let record = last.take() {
                made = mapping.rowAfterUpdate(of: before, written: statement.written, values: statement.values,
                                              over: consume record)
            }
            // Else read back as stored, with whatever triggers or cascades changed
            // (`TableMapping.updateStatement` says why not by `RETURNING`).
            after = try made ?? Self.readRowBack(mapping, keyArguments, after: before, conn)
            // A view counts no rows changed: its INSTEAD OF trigger did nothing when every column
            // written reads back as it was (it was said saved, `name  uno  uno`).
            if mapping.table.isView, let row = after, !statement.written.isEmpty,
               zip(statement.written, statement.values).allSatisfy({ position, value in
                   row.stored(at: position) == before.stored(at: position) && before.stored(at: position) != value
               }) {
                throw FormStoreError.ignored("update", of: mapping)
            }
        } else if !before.isWhole {
            // Nothing written, but read in part: the record is read whole now.
            after = try Self.readRow(mapping, keyArguments, conn)
        } else {
            // Nothing written, nothing to read again: the transaction's snapshot is the same.
            after = StoredRow(record: mapping.record(decoding: before.stored), stored: before.stored)
        }
        // Gone once written: something in the update (a trigger) changed the row's key. Thrown, so the
        // transaction rolls back: a `.notFound` would have committed the write it says never happened.
        guard let after else {
            throw FormStoreError.badKey("the record in \(mapping.table.name) could not be read back by its key after the update "
                                        + "(a trigger changed its key?): nothing was saved")
        }
        try history?.record(before: before, after: after, conn)
        conn.savedRow = SavedRow(mapping: mapping.identity, key: keyArguments, record: after.record,
                                 changesAfterSave: conn.totalChanges)
        var saved = after.record
        saved.writtenForms = forms
        return .saved(saved)
    }

    /// The row with `key` read back after an update of `before` (`TableMapping.rowReadBack(from:after:)`).
    static func readRowBack(_ mapping: TableMapping, _ key: [DatabaseValue], after before: StoredRow,
                            _ conn: Connection) throws -> StoredRow? {
        try readOne(mapping.selectByKeySQL, key, conn) { mapping.rowReadBack(from: $0, after: before) }
    }

    /// The row an update is about to change, as its checks read it. When
    /// the update can change nothing but what it writes (no trigger anywhere,
    /// `TableMapping.updateChangesOnlyWritten`), just the key, the version and
    /// the changed columns are read: every other column is after the update
    /// what it was before (the history skips them). On a wide
    /// form that was a whole row read and kept for one changed field (issue 14).
    static func readRowToUpdate(_ mapping: TableMapping, _ key: [DatabaseValue], changes: [String: FieldValue],
                                _ conn: Connection) throws -> StoredRow? {
        guard mapping.updateChangesOnlyWritten, try conn.hasNoTriggersAnywhere() else {
            return try readRow(mapping, key, conn, changes: changes)
        }
        let positions = mapping.positionsToUpdate(changes)
        return try readOne(mapping.selectByKeySQL(reading: positions), key, conn) {
            mapping.rowToUpdate(from: $0, positions: positions)
        }
    }

    /// The row a `SELECT` by key of `sql` finds, taken by `take` while the statement is on it.
    private static func readOne(_ sql: String, _ key: [DatabaseValue], _ conn: Connection,
                                _ take: (Statement) -> StoredRow) throws -> StoredRow? {
        let statement = try conn.cachedStatement(sql)
        try statement.bind(StatementArguments(key))
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return take(statement)
    }

    public func delete(_ form: Form, key: RecordKey, deletingDraft: String?) throws -> Bool {
        try database.write(try deletion(form, key: key, deletingDraft: deletingDraft))
    }

    /// A delete's preparation, done outside the transaction; returns its statements, for inside one.
    func deletion(_ form: Form, key: RecordKey, deletingDraft: String?) throws -> (Connection) throws -> Bool {
        let mapping = try mapping(for: form)
        let arguments = try mapping.keyArguments(key)
        let sql = "DELETE FROM \(quoteIdentifier(mapping.table.name)) WHERE \(mapping.whereKey)"
        let schema = ownSchema
        return { conn in
            // A view's INSTEAD OF trigger reports no rows changed: whether the row went is read.
            let wasThere = mapping.table.isView ? try Self.readRow(mapping, arguments, conn) != nil : false
            try conn.cachedStatement(sql).execute(StatementArguments(arguments))
            let deleted: Bool
            if mapping.table.isView {
                deleted = wasThere
                if wasThere, try Self.readRow(mapping, arguments, conn) != nil { throw FormStoreError.ignored("delete", of: mapping) }
            } else {
                deleted = conn.changesCount > 0
                if deleted {
                    try Self.checkOneRowChanged(conn, mapping)
                } else if try Self.readRow(mapping, arguments, conn) != nil {
                    throw FormStoreError.ignored("delete", of: mapping)
                }
            }
            if let deletingDraft { try Self.deleteDraft(deletingDraft, schema: schema, conn) }
            return deleted
        }
    }

    /// Throws (rolling the transaction back) when the last statement changed
    /// several rows, or, with `expecting` (`"update"`, `"insert"`), none: a
    /// trigger's `RAISE(IGNORE)` drops a write without an error, and a save
    /// reported done would not be. A view's `INSTEAD OF` trigger reports no
    /// rows, and is trusted.
    static func checkOneRowChanged(_ conn: Connection, _ mapping: TableMapping, expecting write: String? = nil) throws {
        guard !mapping.table.isView else { return }
        let count = conn.changesCount
        guard count <= 1 else { throw FormStoreError.notOneRow(count, table: mapping.table.name) }
        if count == 0, let write { throw FormStoreError.ignored(write, of: mapping) }
    }

    static func load(_ mapping: TableMapping, _ key: [DatabaseValue], _ conn: Connection) throws -> StoredRecord? {
        let statement = try conn.cachedStatement(mapping.selectByKeySQL)
        try statement.bind(positional: key)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let record = mapping.record(from: statement)
        // A NULL key (SQLite lets several rows hold one outside an INTEGER PRIMARY KEY), or one of
        // a column of no type (holding both 5 and '5'), may name more rows: said, where the first
        // was shown as the record (and `set` refused it).
        if mapping.hasUntypedKey || key.contains(.null), try statement.step() {
            throw FormStoreError.badKey("the key names more than one row of '\(mapping.table.name)': "
                                        + "they cannot be told apart by it")
        }
        return record
    }

    /// The record with `key` and its stored values by column, as SQLite holds them.
    static func loadRow(_ mapping: TableMapping, _ key: [DatabaseValue], _ conn: Connection) throws
        -> (StoredRecord, [String: DatabaseValue])? {
        try readRow(mapping, key, conn).map { ($0.record, $0.storedByColumn(mapping)) }
    }

    /// The row with `key`: its record and its stored values by column position.
    /// With `changes`, the record holds only what a save's checks read
    /// (`TableMapping.rowToUpdate(from:changes:)`).
    static func readRow(_ mapping: TableMapping, _ key: [DatabaseValue], _ conn: Connection,
                        changes: [String: FieldValue]? = nil) throws -> StoredRow? {
        try readOne(mapping.selectByKeySQL, key, conn) { statement in
            guard let changes else { return mapping.row(from: statement) }
            return mapping.rowToUpdate(from: statement, changes: changes)
        }
    }
}
