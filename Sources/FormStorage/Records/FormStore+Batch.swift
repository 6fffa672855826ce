public import FormCore
import CSQLite

/// Many records of one form read and written inside one write transaction,
/// through cached statements: what an import of a hundred thousand rows needs.
/// Get one from `FormStore.writeBatch(_:commit:_:)`; it is valid only inside
/// that call.
///
/// Unlike `FormStore.insert`, an insert here does not read the new record
/// back; a statement that fails (a constraint, say) undoes only itself, so
/// the caller may report it and go on.
public final class RecordBatch {
    public let form: Form
    let mapping: TableMapping
    let connection: Connection
    /// The form's groups over child tables (`RecordBatch+Groups`).
    let children: [ChildMapping]
    /// Records each insert and update when the batch was given an attribution (`RecordBatch+History`).
    let history: HistoryWriter?
    /// The rowid SQLite gave the last row this batch inserted, read before
    /// its history is written (whose own insert moves SQLite's last rowid).
    public private(set) var lastInsertedRowID: Int64 = 0
    /// Whether `insertIfKeyIsFree` may leave a stored key to the INSERT: the
    /// key is the table's own and no trigger fires (a BEFORE INSERT trigger
    /// would run for a row that is then not inserted).
    private let insertsIfKeyIsFree: Bool
    /// The INSERT this batch ran last, by the columns it names and its
    /// conflict clause: an import's rows share one, reused without its SQL
    /// text looked up in two caches per row.
    private var lastInsert: (given: [Int], ifKeyIsFree: Bool, statement: Statement)?

    init(form: Form, mapping: TableMapping, connection: Connection, children: [ChildMapping], history: HistoryWriter?,
         insertsIfKeyIsFree: Bool = false) {
        self.form = form
        self.mapping = mapping
        self.connection = connection
        self.children = children
        self.history = history
        self.insertsIfKeyIsFree = insertsIfKeyIsFree
    }

    /// The primary-key columns, in key order.
    public var keyColumns: [String] { mapping.keyColumns }

    /// The record with this key as the transaction sees it, if any.
    ///
    /// - throws: `FormStoreError` (`.badKey`) for a key without every key column; `DatabaseError`.
    public func load(_ key: RecordKey) throws -> StoredRecord? {
        try FormStore.load(mapping, try mapping.keyArguments(key), connection)
    }

    /// The record with this key and its stored values by column, exactly as SQLite holds them.
    public func loadStored(_ key: RecordKey) throws -> (record: StoredRecord, stored: [String: DatabaseValue])? {
        try FormStore.loadRow(mapping, try mapping.keyArguments(key), connection).map { ($0.0, $0.1) }
    }

    /// Checks foreign keys when the batch commits rather than after each
    /// statement (`PRAGMA defer_foreign_keys`), so a row may refer to one
    /// written later in the same batch; a reference still missing at the end
    /// fails the commit, and nothing is kept.
    @discardableResult
    public func deferForeignKeyChecks() throws -> Bool {
        try connection.execute("PRAGMA defer_foreign_keys = ON")
        connection.foreignKeyChecksDeferred = true
        return true
    }

    /// SQLite's own count of the references left to the commit
    /// (`SQLITE_DBSTATUS_DEFERRED_FKS`), which the commit fails on: it can
    /// differ from `PRAGMA foreign_key_check` (`foreignKeyViolationCount`).
    /// A row written before the row it refers to counts one; writing that
    /// row looks for such rows without the key column's affinity, so a
    /// column without a type holding the number 2 is not found for the TEXT
    /// key '2', and the count stays although the reference is whole.
    public func commitWouldFailForReferences() throws -> Bool {
        var current: Int32 = 0
        var highest: Int32 = 0
        let code = sqlite3_db_status(connection.handle.pointer, SQLITE_DBSTATUS_DEFERRED_FKS, &current, &highest, 0)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot read the count of deferred foreign keys") }
        return current != 0
    }

    /// Whether a foreign key of the form's table or of a group's table is
    /// checked at the commit by the schema (`DEFERRABLE INITIALLY DEFERRED`).
    public var checksSomeForeignKeysAtCommit: Bool {
        mapping.defersForeignKeys || children.contains { $0.mapping.defersForeignKeys }
    }

    /// Among `rowIDs`, the rows of the form's table whose foreign keys refer
    /// to no row (`PRAGMA foreign_key_check`, one scan), each with the
    /// refusal naming its field where a one-column key says it.
    public func missingReferences(amongRowIDs rowIDs: Set<Int64>) throws -> [Int64: String] {
        guard !mapping.table.foreignKeys.isEmpty, !rowIDs.isEmpty else { return [:] }
        var found: [Int64: String] = [:]
        for row in try connection.fetchAll("PRAGMA foreign_key_check(\(quoteIdentifier(mapping.table.name)))") {
            guard case .integer(let rowID) = row[1], rowIDs.contains(rowID), found[rowID] == nil else { continue }
            found[rowID] = "a foreign key refers to a row that is neither stored nor imported"
            let select = "SELECT \(mapping.columns.map(quoteIdentifier).joined(separator: ", ")) FROM "
                + "\(quoteIdentifier(mapping.table.name)) WHERE rowid = ?"
            guard let stored = try connection.fetchOne(select, StatementArguments([DatabaseValue.integer(rowID)])) else { continue }
            var values: [String: FieldValue] = [:]
            for (index, column) in mapping.columns.enumerated() { values[column] = mapping.coding(column).decode(stored[index]) }
            do {
                try FormStore.checkReferences(mapping, values, connection, evenWhenDeferred: true)
            } catch let error as FormStoreError {
                found[rowID] = error.message
            }
        }
        return found
    }

    public func missingReference(in values: [String: FieldValue]) throws -> String? {
        do {
            try FormStore.checkReferences(mapping, values, connection, evenWhenDeferred: true)
            return nil
        } catch let error as FormStoreError where error.reason == .missingReference {
            return error.message
        }
    }

    /// How many rows of the form's table (and its groups' tables) refer to a record that does not
    /// exist, as this transaction sees them (`PRAGMA foreign_key_check`): a
    /// dry run compares it before and after, since it never reaches the
    /// commit where deferred checks happen. A full scan; 0 without foreign keys.
    public func foreignKeyViolationCount() throws -> Int {
        // The group tables' too (`import --children`): a child row's dangling key passed a dry run.
        var count = 0
        for table in [mapping.table] + children.map(\.mapping.table) where !table.foreignKeys.isEmpty {
            count += try connection.fetchAll("PRAGMA foreign_key_check(\(quoteIdentifier(table.name)))").count
        }
        return count
    }

    /// Runs `body` in a savepoint: all it wrote is undone when it throws.
    public func atomically<T>(_ body: () throws -> T) throws -> T {
        try connection.transaction(.immediate, body)
    }

    /// Inserts a record (a NULL for a column with a default lets SQLite fill it in).
    ///
    /// - parameter like: by column, the value as it arrived (an import's): a
    ///   value is stored in that form when it holds the same model value, so
    ///   an exported row imports back byte for byte.
    /// - throws: `DatabaseError`, such as a failed constraint; nothing of this record is kept then.
    public func insert(_ values: [String: FieldValue], like: [String: DatabaseValue] = [:]) throws {
        let (given, arguments) = try mapping.insertColumns(mapping.columnValues(values, over: [:]), like: like)
        _ = try insert(given, arguments, ifKeyIsFree: false) { values }
    }

    /// Inserts a record laid out by slot (the form's `CompiledForm.layout`),
    /// each value bound from its slot; `arrived` holds the values as they
    /// arrived, by slot too (see `insert(_:like:)`).
    ///
    /// - throws: `DatabaseError`, such as a failed constraint; nothing of this record is kept then.
    public func insert(_ values: RecordValues, arrived: RecordValues) throws {
        guard mapping.jsonPaths.isEmpty else {
            return try insert(values.dictionary, like: arrived.dictionary.mapValues(DatabaseValue.init))
        }
        let (given, arguments) = try mapping.insertColumns(values, arrived: arrived)
        _ = try insert(given, arguments, ifKeyIsFree: false) { values.dictionary }
    }

    /// `insert(_:arrived:)` unless a record with the same key is stored
    /// (`INSERT … ON CONFLICT (key) DO NOTHING`): an import of rows carrying
    /// their keys needs no lookup for a new one.
    ///
    /// - returns: false, having written nothing, when the key is stored, or
    ///   when this table cannot leave that to the INSERT (a view, a trigger,
    ///   a key that is not the table's own): look the key up then.
    /// - throws: `DatabaseError` when the row breaks another constraint
    ///   (SQLite checks NOT NULL and CHECK before the key, so the key may
    ///   still be stored); nothing of this record is kept then.
    public func insertIfKeyIsFree(_ values: RecordValues, arrived: RecordValues) throws -> Bool {
        guard insertsIfKeyIsFree, mapping.jsonPaths.isEmpty else { return false }
        let (given, arguments) = try mapping.insertColumns(values, arrived: arrived)
        return try insert(given, arguments, ifKeyIsFree: true) { values.dictionary }
    }

    /// Runs the INSERT of the columns at `given` (positions in the mapping's
    /// columns) and records it; `values` gives the record for the history.
    /// False when `ifKeyIsFree` and the key was stored, so nothing was written.
    private func insert(_ given: [Int], _ arguments: [DatabaseValue], ifKeyIsFree: Bool,
                        values: () -> [String: FieldValue]) throws -> Bool {
        let statement: Statement
        if let lastInsert, lastInsert.ifKeyIsFree == ifKeyIsFree, lastInsert.given == given {
            statement = lastInsert.statement
        } else {
            // The SQL text of a column set is built once, on the mapping (`StatementSQLCache`).
            statement = try connection.cachedStatement(mapping.insertSQL(given, ifKeyIsFree: ifKeyIsFree))
            lastInsert = (given, ifKeyIsFree, statement)
        }
        try FormStore.namingMissingReference(mapping, values(), connection) { try statement.execute(StatementArguments(arguments)) }
        if ifKeyIsFree && connection.changesCount == 0 { return false }
        try FormStore.checkOneRowChanged(connection, mapping, expecting: "insert")
        lastInsertedRowID = connection.lastInsertedRowID
        if let history { try recordInsert(values(), history) }
        return true
    }

    /// Writes `changes` to the record with `key` (bumping the version column).
    ///
    /// - returns: false when there is no such record.
    /// - throws: `DatabaseError`, such as a failed constraint; nothing of this change is kept then.
    @discardableResult
    public func update(_ key: RecordKey, changes: [String: FieldValue], like: [String: DatabaseValue] = [:]) throws -> Bool {
        if let history { return try recordUpdate(key, history) { try updateRow(key, changes: changes, like: like) } }
        return try updateRow(key, changes: changes, like: like)
    }

    private func updateRow(_ key: RecordKey, changes: [String: FieldValue], like: [String: DatabaseValue]) throws -> Bool {
        // A change inside a JSON column keeps the rest of its document; a date
        // or bool with no form given takes the form of the value it replaces.
        var current: [String: FieldValue] = [:]
        var forms = like
        let needsRow = !mapping.jsonPaths.isEmpty
            || changes.keys.contains { like[$0] == nil && mapping.coding($0).kind?.takesStoredForm == true }
        if needsRow, let (record, stored) = try loadStored(key) {
            current = record.values
            forms.merge(stored) { given, _ in given }
        }
        guard let statement = try mapping.updateStatement(mapping.columnValues(changes, over: current),
                                                      key: try mapping.keyArguments(key), like: forms) else {
            return try load(key) != nil
        }
        try FormStore.namingMissingReference(mapping, changes, connection) {
            try connection.cachedStatement(statement.sql).execute(statement.arguments)
        }
        // A key that names two rows (an untyped key column holding 1 and '1') writes neither: the batch rolls back.
        try FormStore.checkOneRowChanged(connection, mapping)
        // None changed: no such record, or a trigger ignored the update of one there.
        if !mapping.table.isView, connection.changesCount == 0, try load(key) != nil {
            throw FormStoreError.ignored("update", of: mapping)
        }
        return connection.changesCount > 0
    }
}

@available(*, unavailable)
extension RecordBatch: Sendable {}

extension FormStore {
    /// Runs `body` with a batch of `form`'s records inside one write
    /// transaction (`BEGIN IMMEDIATE`): committed when `body` returns and
    /// `commit` is true; rolled back when `body` throws, or when `commit` is
    /// false (a dry run that still meets every constraint).
    ///
    /// ```swift
    /// let count = try store.writeBatch(form) { batch in
    ///     for row in rows { try batch.insert(row) }
    ///     return rows.count
    /// }
    /// ```
    ///
    /// With an `attribution`, each record inserted or updated is recorded in
    /// the history as a save by it (when the store keeps history: see `FormStore+History`).
    ///
    /// - throws: `FormStoreError` when the form does not match its table;
    ///   `DatabaseError`; or what `body` throws (nothing is kept then).
    public func writeBatch<T>(_ form: Form, commit: Bool = true, attribution: ChangeAttribution? = nil,
                              _ body: (RecordBatch) throws -> T) throws -> T {
        let mapping = try mapping(for: form)
        let children = form.groups.isEmpty ? [] : try childMappings(form, parent: mapping)
        let history = try attribution.flatMap { try historyWriter(mapping, $0) }
        var result: T?
        do {
            try database.write { conn in
                // The pragma ends with the transaction; so does the note of it.
                defer { conn.foreignKeyChecksDeferred = false }
                let insertsIfKeyIsFree = try mapping.insertsIfKeyIsFree && conn.hasNoTriggers(on: mapping.table.name)
                result = try body(RecordBatch(form: form, mapping: mapping, connection: conn, children: children,
                                              history: history, insertsIfKeyIsFree: insertsIfKeyIsFree))
                if !commit { throw RolledBack() }
            }
        } catch is RolledBack {}
        return result!
    }
}

/// Ends a dry run's transaction without committing it.
private struct RolledBack: Error {}
