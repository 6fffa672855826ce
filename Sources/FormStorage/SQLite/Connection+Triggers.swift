import CSQLite

extension Connection {
    /// Whether no trigger of the main database fires on writes to `table`,
    /// asked once per schema version: an import leaves a key conflict to
    /// `INSERT … ON CONFLICT DO NOTHING` only then (`FormStore+Batch.swift`).
    ///
    /// - throws: `DatabaseError`.
    func hasNoTriggers(on table: String) throws -> Bool {
        let schemaVersion = try schemaVersion()
        if triggerFreeTables[table] == schemaVersion { return true }
        let found = try cachedStatement("""
            SELECT 1 FROM main.sqlite_schema WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE LIMIT 1
            """)
        try found.bind(StatementArguments([.text(table)]))
        defer { found.reset() }
        guard try !found.step() else { return false }
        triggerFreeTables[table] = schemaVersion
        return true
    }

    /// Whether no trigger is defined at all, in the main database or this
    /// connection's temporary one, asked once per pair of schema versions: a
    /// write then changes no row but those it names. Any trigger anywhere
    /// counts, since a cascade into another table may fire one writing back.
    ///
    /// - throws: `DatabaseError`.
    func hasNoTriggersAnywhere() throws -> Bool {
        // The temporary database is asked about only once it is open: asking
        // would open it, and `pragma_database_list` (which a trigger may
        // read) would list it from then on. Never opened, it holds no trigger.
        let temporaryIsOpen = sqlite3_db_filename(handle.pointer, "temp") != nil
        let versions = [try schemaVersion(), temporaryIsOpen ? try schemaVersion(ofTemporary: true) : -1]
        if triggerFreeSchemas == versions { return true }
        let found = try cachedStatement(temporaryIsOpen ? """
            SELECT 1 FROM main.sqlite_schema WHERE type = 'trigger'
            UNION ALL SELECT 1 FROM temp.sqlite_schema WHERE type = 'trigger' LIMIT 1
            """ : "SELECT 1 FROM main.sqlite_schema WHERE type = 'trigger' LIMIT 1")
        defer { found.reset() }
        guard try !found.step() else { return false }
        triggerFreeSchemas = versions
        return true
    }
}
