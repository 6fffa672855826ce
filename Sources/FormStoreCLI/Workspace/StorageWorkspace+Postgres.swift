import FormCore
import FormStorage
import FormStoragePostgres

/// PostgreSQL (`--db postgres://…`): the same commands through `RecordStore`.
extension StorageWorkspace {
    /// Connects to the server named by the URL. FormStore's own tables
    /// (`formstore_*`) are created by `init`, and by `edit`, which keeps
    /// drafts there (PostgreSQL has no sidecar); other commands leave the
    /// database's schema as it is. A server holds no file to create, so a
    /// missing database is the server's error (exit 74).
    ///
    /// - throws: `PostgresError` (its message names the host, never the password).
    func openPostgres() throws -> PostgresFormStore {
        // One connection serves a command; `serve` answers a few requests at once.
        // A lock held by another transaction is waited for as long as SQLite's busy timeout (exit 75 after).
        // A command that only reads opens transactions the server keeps read-only: it writes nothing,
        // not even the trigger `serve --read-only`'s live pages would otherwise install.
        let pool = try PostgresPool(url: databasePath, maxConnections: 4, lockTimeout: globals.busyTimeout,
                                    readOnly: access.isReadOnly)
        return try PostgresFormStore(pool: pool, applyingMigrations: access == .writeWithDrafts)
    }
}
