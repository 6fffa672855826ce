import FormBasics
import FormCore
public import FormStorage
import FoundationEssentials

/// Applies a `Migrator`'s migrations (FormStore's own, or a user's folder) to
/// PostgreSQL: the same files and the same SHA-256 checksums as on SQLite,
/// recorded in the same table, each in its own transaction with its record.
///
/// ```swift
/// try PostgresMigrator(Migrator.formStore).migrate(pool)
/// ```
///
/// Where a migration's SQL cannot run on PostgreSQL as written, `dialect`
/// gives PostgreSQL's form by file name (FormStore's own: `Migrations/postgres/`);
/// the migration keeps its name and checksum, so both databases record the same.
///
/// A transaction-scoped advisory lock, taken first, makes two processes that
/// migrate at once apply each migration once. Refused before anything runs: a
/// file edited after it was applied, a number applied that no file has.
public struct PostgresMigrator: Sendable {
    public let migrator: Migrator
    /// PostgreSQL's SQL for the migrations whose SQL differs there, by file name.
    public let dialect: [String: String]

    public init(_ migrator: Migrator, dialect: [String: String] = [:]) {
        self.migrator = migrator
        self.dialect = dialect
    }

    /// FormStore's own tables (`Migrations/`, with `Migrations/postgres/` where PostgreSQL differs).
    public static let formStore = PostgresMigrator(.formStore, dialect: EmbeddedPostgresMigrations.files)

    /// Applies every pending migration.
    ///
    /// - returns: the migrations applied by this call, in order.
    /// - throws: `MigrationError` (`.failed` when a migration's SQL is refused:
    ///   nothing of it is kept), or `PostgresError` when the server cannot be used.
    @discardableResult
    public func migrate(_ pool: PostgresPool) throws -> [Migration] {
        let migrations = try migrator.migrations()
        let byNumber = Dictionary(uniqueKeysWithValues: migrations.map { ($0.number, $0) })
        var applied: [Migration] = []
        while let next = try pool.write({ conn -> Migration? in
            try conn.execute("SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext($1))", [migrator.table])
            // Created only where missing: `CREATE TABLE IF NOT EXISTS` needs CREATE on the schema even when
            // the table is there, which a role that only uses FormStore's tables need not have.
            let exists = try conn.execute("SELECT pg_catalog.to_regclass($1) IS NOT NULL", [quoteIdentifier(migrator.table)])
            if exists.text(row: 0, column: 0) != "t" {
                try conn.execute("""
                    CREATE TABLE IF NOT EXISTS \(quoteIdentifier(migrator.table)) (
                        id INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)
                    """)
            }
            let recorded = try conn.execute("SELECT id, name, checksum FROM \(quoteIdentifier(migrator.table)) ORDER BY id")
            var numbers: Set<Int> = []
            for row in 0..<recorded.rowCount {
                let number = Int(recorded.text(row: row, column: 0) ?? "") ?? 0
                guard let migration = byNumber[number] else {
                    throw MigrationError.unknownMigration(number: number, recordedName: recorded.text(row: row, column: 1) ?? "")
                }
                let checksum = recorded.text(row: row, column: 2) ?? ""
                guard checksum == migration.checksum else {
                    throw MigrationError.checksumMismatch(migration.fileName, recorded: checksum, current: migration.checksum)
                }
                numbers.insert(number)
            }
            try migrator.refuseTakenNames(applied: numbers) { name in
                try conn.execute("SELECT pg_catalog.to_regclass($1) IS NOT NULL", [quoteIdentifier(name)]).text(row: 0, column: 0) == "t"
            }
            guard let pending = migrations.first(where: { !numbers.contains($0.number) }) else { return nil }
            do {
                try conn.executeScript(dialect[pending.fileName] ?? pending.sql)
            } catch let error as PostgresError where !error.isConnectionLost && !error.isRetryable && !error.isLockTimeout {
                // The file's SQL was refused: named, with the files this run applied before it (each committed).
                throw MigrationError.failed(pending.fileName, reason: "PostgreSQL error \(error.sqlState): \(error.message)",
                                            appliedBefore: applied.map(\.fileName))
            }
            try conn.execute("INSERT INTO \(quoteIdentifier(migrator.table)) (id, name, checksum, applied_at) VALUES ($1, $2, $3, $4)",
                             [String(pending.number), pending.fileName, pending.checksum, ISO8601.dateTime(Date())])
            return pending
        }) {
            applied.append(next)
        }
        return applied
    }
}
