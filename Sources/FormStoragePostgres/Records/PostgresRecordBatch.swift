import FormCore
import FormStorage
import FoundationEssentials

/// Many records of one form written in one PostgreSQL transaction (an
/// import's): get one from `PostgresFormStore.writeRecords`. Each write runs
/// inside a savepoint, so one the server refuses (a constraint) undoes only
/// itself and the transaction goes on, as a failed statement does on SQLite.
final class PostgresRecordBatch: RecordWriting {
    let mapping: PostgresTableMapping
    let connection: PostgresConnection
    /// The form's groups over child tables (`PostgresRecordBatch+Groups.swift`).
    let children: [PostgresChildMapping]
    /// The key of the record this batch inserted last, as the server returned it.
    private(set) var lastInserted: RecordKey?
    /// Records each insert and update as a save, when the batch was given an attribution.
    let history: PostgresHistoryWriter?
    /// Columns filled in by a sequence (serial, identity) that an insert gave a
    /// value to: `advanceSequences()` moves their sequences past what was given.
    private var sequencedColumnsGiven: Set<String> = []
    /// The stored texts of the row `loadStored` read last, by its key, when the
    /// history needs them: the update that follows records them as "before"
    /// without reading the row again.
    private var loaded: (key: [String?], texts: [String: String?])?

    init(mapping: PostgresTableMapping, connection: PostgresConnection, history: PostgresHistoryWriter? = nil,
         children: [PostgresChildMapping] = []) {
        self.mapping = mapping
        self.connection = connection
        self.children = children
        self.history = history
    }

    var keyColumns: [String] { mapping.keyColumns }

    var computedColumns: Set<String> { Set(mapping.table.columns.filter(\.isGenerated).map(\.name)) }
    var keepsDecimalDigits: Bool { true }

    func loadStored(_ key: RecordKey) throws -> (record: StoredRecord, stored: [String: DatabaseValue])? {
        let keyParameters = try mapping.keyParameters(key)
        let result = try connection.execute(mapping.selectByKeySQL, keyParameters)
        guard result.rowCount == 1 else { return nil }
        if history != nil { loaded = (keyParameters, mapping.storedTexts(result, row: 0)) }
        var stored: [String: DatabaseValue] = [:]
        for (index, column) in mapping.columns.enumerated() {
            stored[column] = DatabaseValue(mapping.coding(column).exported(result.text(row: 0, column: index)))
        }
        return (mapping.record(result, row: 0), stored)
    }

    func insert(_ values: [String: FieldValue], like: [String: DatabaseValue]) throws {
        _ = try insert(values, like: like, ifKeyIsFree: false)
    }

    /// `insert(_:like:)` unless the key is stored (`INSERT … ON CONFLICT (key)
    /// DO NOTHING`): an import of rows carrying their keys needs no lookup
    /// first for a new one, a round trip a row. Only where nothing but a
    /// conflict leaves a row out: the key is the primary key, and no `BEFORE`
    /// trigger runs (it would run for a row then not inserted, and may drop one).
    func insertIfKeyIsFree(_ values: RecordValues, arrived: RecordValues) throws -> Bool {
        let table = mapping.table
        guard !table.isView, !table.rewritesRows, !table.primaryKey.isEmpty, Set(table.primaryKey) == Set(keyColumns),
              mapping.jsonPaths.isEmpty else { return false }
        return try insert(values.dictionary, like: arrived.dictionary.mapValues(DatabaseValue.init), ifKeyIsFree: true)
    }

    /// False when `ifKeyIsFree` and the key was stored, so nothing was written.
    private func insert(_ values: [String: FieldValue], like: [String: DatabaseValue], ifKeyIsFree: Bool) throws -> Bool {
        let statement = try mapping.insertStatement(values, like: like.mapValues(FieldValue.init), overridingIdentity: true,
                                                    ifKeyIsFree: ifKeyIsFree)
        for (name, value) in values where value != .null {
            if mapping.table.column(name)?.takesSequence == true {
                sequencedColumnsGiven.insert(name)
            }
        }
        return try namingRefusal(values) { try inSavepoint {
            let result = try mapping.rowLeft(by: connection.execute(statement.sql, statement.parameters), connection)
            if ifKeyIsFree && result.rowCount == 0 { return false }
            // None: a trigger dropped the row (a BEFORE trigger returning NULL), as the session's insert says.
            guard result.rowCount == 1 else {
                throw PostgresStoreError.notOneRow(result.rowCount, table: mapping.table.name, write: "insert")
            }
            let record = mapping.record(result, row: 0)
            try mapping.checkStoredAsWritten(values, saved: record)
            let key = record.key
            lastInserted = key
            try history?.record(before: nil, after: mapping.storedTexts(result, row: 0), key: key, connection)
            return true
        } }
    }

    /// Moves the sequence of each column given values (an import restoring
    /// keys) past the largest value the table now holds, as pg_dump restores
    /// a sequence: else the next record the server numbers would take a key in use.
    /// A sequence already past it is left alone.
    func advanceSequences() throws {
        for column in sequencedColumnsGiven.sorted() {
            let table = quoteIdentifier(mapping.table.name)
            try connection.execute("""
                SELECT pg_catalog.setval(s::regclass, m) FROM (SELECT pg_catalog.pg_get_serial_sequence($1, $2) AS s,
                    (SELECT max(\(quoteIdentifier(column))) FROM \(table)) AS m) AS given
                WHERE s IS NOT NULL AND m IS NOT NULL AND m > COALESCE(pg_catalog.pg_sequence_last_value(s::regclass), 0)
                """, [table, column])
        }
    }

    @discardableResult
    func update(_ key: RecordKey, changes: [String: FieldValue], like: [String: DatabaseValue]) throws -> Bool {
        let keyParameters = try mapping.keyParameters(key)
        // A change inside a JSON document keeps the rest of it: the document is read first.
        let current = mapping.jsonPaths.isEmpty ? [:] : try loadStored(key)?.record.values ?? [:]
        guard let statement = try mapping.updateStatement(changes, key: keyParameters, over: current,
                                                      like: like.mapValues(FieldValue.init)) else {
            return try connection.execute(mapping.selectByKeySQL, keyParameters).rowCount == 1
        }
        return try namingRefusal(changes) { try inSavepoint {
            let before = try history == nil ? nil : storedTexts(keyParameters)
            loaded = nil  // the write changes the row: a later update reads it again
            let result = try mapping.rowLeft(by: connection.execute(statement.sql, statement.parameters), connection)
            // None changed of a row that is there: a trigger ignored the update (it returned NULL).
            if result.rowCount == 0, try connection.execute(mapping.selectByKeySQL, keyParameters).rowCount == 1 {
                throw PostgresStoreError.notOneRow(0, table: mapping.table.name, write: "update")
            }
            if result.rowCount == 1 { try mapping.checkStoredAsWritten(changes, saved: mapping.record(result, row: 0)) }
            if let history, let before, result.rowCount == 1 {
                try history.record(before: before, after: mapping.storedTexts(result, row: 0),
                                   key: mapping.record(result, row: 0).key, connection)
            }
            return result.rowCount == 1
        } }
    }

    /// Runs `write` (in its savepoint), saying a foreign key's or a CHECK's
    /// refusal by what was refused (`PostgresTableMapping.namedRefusal`).
    private func namingRefusal<T>(_ values: [String: FieldValue], _ write: () throws -> T) throws -> T {
        do {
            return try write()
        } catch let error as PostgresError where error.isForeignKeyViolation || error.isCheckViolation || error.isUniqueViolation {
            throw try mapping.namedRefusal(error, of: values, connection) ?? error
        }
    }

    /// The row's stored texts before a write: those `loadStored` just read, else read now.
    private func storedTexts(_ keyParameters: [String?]) throws -> [String: String?]? {
        if let loaded, loaded.key == keyParameters { return loaded.texts }
        let result = try connection.execute(mapping.selectByKeySQL, keyParameters)
        return result.rowCount == 1 ? mapping.storedTexts(result, row: 0) : nil
    }

    /// 1 when a deferred foreign key now refers to no row, else 0: the check
    /// runs the deferred constraints at once inside a savepoint rolled back
    /// after it, which leaves them deferred as they were.
    /// The constraints deferred checked now, as the commit will check them.
    func commitWouldFailForReferences() throws -> Bool {
        try foreignKeyViolationCount() > 0
    }

    func foreignKeyViolationCount() throws -> Int {
        try connection.executeScript("SAVEPOINT formstore_check")
        defer { _ = try? connection.executeScript("ROLLBACK TO SAVEPOINT formstore_check; RELEASE SAVEPOINT formstore_check") }
        do {
            try connection.executeScript("SET CONSTRAINTS ALL IMMEDIATE")
            return 0
        } catch let error as PostgresError where error.isForeignKeyViolation {
            return 1
        }
    }

    /// Leaves the foreign keys' checks to the commit (`SET CONSTRAINTS …
    /// DEFERRED`, naming them: a DEFERRABLE UNIQUE constraint keeps its
    /// check per row, and its line) when every key of the tables written may
    /// wait (declared DEFERRABLE): the rows still waiting are then written
    /// once, as on SQLite, and rows referring to one another in a cycle get
    /// in, which no round of tries lets in. A key that may not wait is
    /// checked per row whatever is set, and a row it refused would be
    /// refused for good: the rounds of tries serve then.
    func deferForeignKeyChecks() throws -> Bool {
        var names: [String] = []
        for table in [mapping.table.name] + children.map(\.mapping.table.name) {
            let result = try connection.execute("""
                SELECT c.condeferrable, pg_catalog.quote_ident(n.nspname) || '.' || pg_catalog.quote_ident(c.conname)
                FROM pg_catalog.pg_constraint c JOIN pg_catalog.pg_namespace n ON n.oid = c.connamespace
                WHERE c.contype = 'f' AND c.conrelid = pg_catalog.to_regclass(pg_catalog.quote_ident($1))
                """, [table])
            for row in 0..<result.rowCount {
                guard result.text(row: row, column: 0) == "t" else { return false }
                names.append(result.text(row: row, column: 1) ?? "")
            }
        }
        if !names.isEmpty { try connection.executeScript("SET CONSTRAINTS \(names.joined(separator: ", ")) DEFERRED") }
        return true
    }

    /// The refusal of a foreign key among `values` that refers to no row now
    /// (`PostgresTableMapping.missingReference(in:_:)`).
    func missingReference(in values: [String: FieldValue]) throws -> String? {
        try mapping.missingReference(in: values, connection)?.message
    }

    func storedDate(_ value: FieldValue, field: String) -> Date? {
        mapping.storedDate(value, field: field)
    }

    func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        try inSavepoint("formstore_row", body)
    }

    func atomically<T>(_ body: () throws -> T) throws -> T {
        try inSavepoint("formstore_line", body)
    }

    /// Runs `body` in the savepoint `name`, rolled back to when it throws
    /// (any error but a lost connection, which has no transaction left).
    private func inSavepoint<T>(_ name: String, _ body: () throws -> T) throws -> T {
        // Sent with the row's first statement, and released with the next row's: a round trip
        // each was half of an imported row's (20 000 rows took 12 s).
        connection.pendingStatements.append("SAVEPOINT \(name)")
        do {
            let result = try body()
            connection.pendingStatements.append("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            if let lost = error as? PostgresError, lost.isConnectionLost { throw error }
            // Never sent (the row failed before its first statement): there is nothing to roll back.
            if connection.pendingStatements.last == "SAVEPOINT \(name)" {
                connection.pendingStatements.removeLast()
                throw error
            }
            // ROLLBACK TO keeps the savepoint open: RELEASE it as well. Left open, each refused row
            // nested the next rows' savepoints one level deeper, and every subtransaction around a
            // write took a lock that lasted to the commit: an import whose rows wait for later
            // ones ran out of lock memory after a few hundred ("out of shared memory").
            try connection.executeScript("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
            throw error
        }
    }
}

@available(*, unavailable)
extension PostgresRecordBatch: Sendable {}
