import FormBasics
import FormCore
import FoundationEssentials
import Synchronization

/// FormStore's own tables: in the database, or in its sidecar.
extension FormStore {
    /// The sidecar that holds FormStore's tables for this database; `nil`
    /// when they are (or would be) in the database itself.
    public var sidecar: Sidecar? {
        if case .sidecar(let sidecar) = ownTables.withLock({ $0 }) { return sidecar }
        return nil
    }

    /// Takes the database over for FormStore, as `formstore init` does: its
    /// tables are created (or brought up to date) in the database itself and
    /// the file is switched to WAL. Drafts, specs and settings kept in a
    /// sidecar until now move into the database.
    ///
    /// ```swift
    /// let store = try FormStore(path: "existing.sqlite")   // left as it is
    /// try store.initialize()                               // now FormStore's too
    /// ```
    ///
    /// - returns: the migrations applied.
    /// - throws: `DatabaseError` or `MigrationError`; `SQLITE_CORRUPT` for a
    ///   database `PRAGMA quick_check` finds damaged, which is left as it is.
    @discardableResult
    public func initialize() throws -> [Migration] {
        // A damaged file is not taken over: its schema and pages would go on as FormStore's (WAL, its tables).
        if !database.createdFile, let problem = try database.read({ try $0.fetchValue(String.self, "PRAGMA quick_check(1)") }),
           problem != "ok" {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "database disk image is malformed (\(problem))")
        }
        let applied = try Migrator.formStore.migrate(database)
        if sidecar != nil, database.isAttached(Sidecar.schemaName) {
            try database.write { conn in
                let side = quoteIdentifier(Sidecar.schemaName)
                // History's fields after its changes (they refer to them), deleted the other way round.
                let tables = ["formstore_drafts", "formstore_forms", "formstore_changes", "formstore_change_fields"]
                for table in tables {
                    try conn.execute("INSERT OR IGNORE INTO main.\(table) SELECT * FROM \(side).\(table)")
                }
                for table in tables.reversed() { try conn.execute("DELETE FROM \(side).\(table)") }
                try conn.execute("""
                    INSERT OR IGNORE INTO main.formstore_settings SELECT * FROM \(side).formstore_settings WHERE key NOT IN (?, ?)
                    """, [Sidecar.databaseKey, Sidecar.movedKey])
                try conn.execute("DELETE FROM \(side).formstore_settings WHERE key != ?", [Sidecar.databaseKey])
                // Told to any process that has the sidecar open (a server): its next write goes to these tables.
                try conn.execute("INSERT INTO \(side).formstore_settings (key, value, updated_at) VALUES (?, 'true', ?)",
                                 [Sidecar.movedKey, ISO8601.dateTime(Date())])
            }
        }
        try database.writeWithoutTransaction { try $0.switchToWAL() }
        ownTables.withLock { $0 = .database }
        return applied
    }

    /// Makes FormStore's tables reachable before a write to them: for a
    /// database with a sidecar, creates the sidecar on the first write and
    /// attaches it. Never called by reads, so reading creates nothing.
    ///
    /// - throws: `DatabaseError`, `MigrationError`, or a file error creating the sidecar.
    public func prepareOwnTables() throws {
        try attachSidecar(creating: true)
    }

    /// Attaches the sidecar when there is one (creating it first when
    /// `creating`); returns whether FormStore's tables can be reached.
    /// `lookingForTakeOver`: false as the store opens, which has just seen the database has no tables of FormStore's.
    @discardableResult
    func attachSidecar(creating: Bool, lookingForTakeOver: Bool = true) throws -> Bool {
        guard let sidecar else { return true }
        if database.isAttached(Sidecar.schemaName) {
            if try movedIntoDatabase() { ownTables.withLock { $0 = .database } }
            return true
        }
        // Taken over (`formstore init`) by another process before this store made its sidecar:
        // its tables are the database's now. (A read it cannot make now is as none: the sidecar.)
        if lookingForTakeOver, lookAgainForTakeOver(),
           (try? database.read({ try Self.ownTableExists(Migrator.formStore.table, schema: "main", $0) })) == true {
            ownTables.withLock { $0 = .database }
            return true
        }
        // One that could not be opened is as none to read (`sidecarProblem`); a write tries it again.
        if !creating, sidecarProblem != nil { return false }
        let writable = !database.configuration.readOnly
        guard sidecar.exists || (creating && writable) else { return false }
        do {
            // Its folder must be the user's alone: another user could swap the sidecar.
            try PrivateDirectory.check(sidecar.directory)
            if writable { try sidecar.prepare(busyTimeout: database.configuration.busyTimeout) }
            try database.attach(sidecar.path, as: Sidecar.schemaName)
        } catch let error as DatabaseError {
            // Named as the sidecar's: the database itself is fine.
            throw SidecarError(path: sidecar.path, underlying: error)
        }
        return true
    }

    /// Whether a second has passed since the last look for a take-over (or none was made).
    private func lookAgainForTakeOver() -> Bool {
        let now = ContinuousClock.now
        return takeOverLooked.withLock { last in
            if let last, now - last < .seconds(1) { return false }
            last = now
            return true
        }
    }

    /// Whether another process took the database over (`formstore init`)
    /// since this store attached its sidecar: the sidecar's rows were moved
    /// into the database's own tables, which this store uses from now on.
    /// It kept writing to the emptied sidecar, where a server's saves and
    /// drafts went to no history or draft anyone read.
    private func movedIntoDatabase() throws -> Bool {
        let side = quoteIdentifier(Sidecar.schemaName)
        return try database.read { conn in
            guard try Self.ownTableExists("formstore_settings", schema: Sidecar.schemaName, conn),
                  try conn.cachedStatement("SELECT 1 FROM \(side).formstore_settings WHERE key = ?").fetchOne([Sidecar.movedKey]) != nil
            else { return false }
            // A database put back at the path (a backup) may lack the tables: then the sidecar stays.
            return try Self.ownTableExists(Migrator.formStore.table, schema: "main", conn)
        }
    }

    /// Runs `body`, a write to FormStore's own tables alone (a draft, a kept
    /// spec, a setting), in a transaction. In a sidecar it locks the sidecar
    /// alone: `BEGIN IMMEDIATE` takes the write lock of every attached file,
    /// and the user's database, in its rollback journal, then refused its
    /// other readers ("database is locked") while a person typed and drafts
    /// were saved.
    func writeOwnTables<T>(_ body: (Connection) throws -> T) throws -> T {
        try database.write(sidecar == nil ? .immediate : .deferred, body)
    }

    /// The schema FormStore's own tables are in on this store's connections,
    /// quoted: `main`, or the attached sidecar's. Every statement on them names
    /// it, so a `formstore_drafts` table planted in a database FormStore does not
    /// own is never read or written in place of the sidecar's.
    var ownSchema: String {
        ownTables.withLock { tables in
            if case .sidecar = tables { return quoteIdentifier(Sidecar.schemaName) }
            return "main"
        }
    }

    /// Whether a table of FormStore's is reachable on `conn` in `schema` (as `ownSchema` gives it).
    ///
    /// Every save asks (the history's table, the draft to delete), so the
    /// answer, found or not, is kept on the connection while the schema's
    /// version stays the one it was found at: a walk of `pragma_table_list`
    /// cost about 50 k instructions, where a save without history costs
    /// about 100 k (issue 14).
    static func ownTableExists(_ name: String, schema: String, _ conn: Connection) throws -> Bool {
        let isMain = schema == "main"
        // No version when the schema is not attached: then the table is looked for, and not there.
        let version = try? conn.schemaVersion(of: isMain ? Connection.mainSchemaVersion : sidecarSchemaVersion)
        if let version, let seen = conn.ownTablesSeen[name], seen.isMain == isMain, seen.schemaVersion == version {
            return seen.exists
        }
        let exists = try conn.cachedStatement("SELECT 1 FROM pragma_table_list WHERE name = ? AND schema = ?")
            .fetchOne([name, isMain ? "main" : Sidecar.schemaName]) != nil
        if let version { conn.ownTablesSeen[name] = (isMain, version, exists) }
        return exists
    }

    /// `PRAGMA schema_version` of the sidecar, built once.
    private static let sidecarSchemaVersion = "PRAGMA \(quoteIdentifier(Sidecar.schemaName)).schema_version"
}
