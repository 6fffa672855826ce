import FormBasics
public import FoundationEssentials

/// Applies numbered `.sql` migrations once each, in order, and records them
/// in a table with their checksums.
///
/// ```swift
/// try Migrator.formStore.migrate(db)   // FormStore's own tables (formstore_*)
/// try Migrator(directory: URL(fileURLWithPath: "db/migrations")).migrate(db)   // the user's
/// ```
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction together with
/// its record, so a failure keeps nothing of it, and two processes migrating
/// at once apply each migration once. Refused before anything runs: a file
/// not named `NNNN_name.sql`, a duplicate or missing number, and a file edited
/// after it was applied.
public struct Migrator: Sendable {
    /// The table that records applied migrations.
    public let table: String
    private let files: [String: String]

    /// Migrations given as SQL by file name.
    public init(files: [String: String], table: String) {
        self.files = files
        self.table = table
    }

    /// The `.sql` files of a folder (other files are ignored). The default
    /// table keeps a user's migrations apart from FormStore's own.
    ///
    /// - throws: `MigrationError` (`.unreadable`) when the folder or a file cannot be read.
    public init(directory: URL, table: String = "formstore_user_migrations") throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw MigrationError.unreadable(directory.path, reason: ErrorText.describe(error))
        }
        var files: [String: String] = [:]
        for name in names where name.hasSuffix(".sql") {
            let path = directory.appendingPathComponent(name).path
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw MigrationError.unreadableFile(path, reason: ErrorText.describe(error))
            }
            guard let text = String(validating: data, as: UTF8.self) else { throw MigrationError.notText(path) }
            files[name] = text
        }
        self.init(files: files, table: table)
    }

    /// FormStore's own schema (`Migrations/` at the package root, embedded in the binary),
    /// recorded in `formstore_migrations`.
    public static let formStore = Migrator(files: EmbeddedMigrations.files, table: "formstore_migrations")

    /// The tables FormStore's own migrations make (`Migrations/`).
    static let ownTableNames = ["formstore_settings", "formstore_drafts", "formstore_forms", "formstore_changes",
                                "formstore_change_fields"]

    /// Refuses FormStore's own migrations on a database none of them were
    /// applied to that already has a table of one of their names (the
    /// user's): before anything is made, where the run used to stop halfway
    /// and leave the database unable to take them. Other migrators are not checked.
    ///
    /// - parameter exists: whether the database has a table (or view) of that name.
    /// - throws: `MigrationError` (`.nameTaken`).
    public func refuseTakenNames(applied: Set<Int>, exists: (String) throws -> Bool) throws {
        guard table == Self.formStore.table, applied.isEmpty else { return }
        for name in Self.ownTableNames where try exists(name) { throw MigrationError.nameTaken(name) }
    }

    /// The migrations in order.
    ///
    /// - throws: `MigrationError` for a bad file name, a duplicate number or a gap.
    public func migrations() throws -> [Migration] {
        let migrations = try files.map { try Migration(fileName: $0.key, sql: $0.value) }
            .sorted { ($0.number, $0.fileName) < ($1.number, $1.fileName) }
        for (index, migration) in migrations.enumerated() {
            if index > 0, migrations[index - 1].number == migration.number {
                throw MigrationError.duplicateNumber(migration.fileName, other: migrations[index - 1].fileName)
            }
            if migration.number != index + 1 {
                throw MigrationError.gap(migration.fileName, expected: index + 1)
            }
        }
        return migrations
    }

    /// Applies every pending migration, each in its own write transaction.
    ///
    /// - returns: the migrations applied by this call, in order.
    /// - throws: `MigrationError`, or `DatabaseError` when the database itself fails.
    @discardableResult
    public func migrate(_ db: Database) throws -> [Migration] {
        try db.writeWithoutTransaction { try migrate($0) }
    }

    /// Applies every pending migration on a connection (for a connection of
    /// one's own; prefer `migrate(_: Database)`).
    ///
    /// - returns: the migrations applied by this call, in order.
    /// - throws: `MigrationError`, or `DatabaseError` when the database itself fails.
    @discardableResult
    public func migrate(_ conn: Connection) throws -> [Migration] {
        let migrations = try migrations()
        // Up to date (the common case) is found by a read: a command that only
        // needs the tables must not wait for, or fail on, another process's write lock.
        let upToDate = try conn.transaction(.deferred) {
            try Set(migrations.map(\.number)).isSubset(of: checkApplied(conn, against: migrations))
        }
        if upToDate { return [] }
        var applied: [Migration] = []
        // One transaction per migration; the applied set is read inside it, so a
        // migration another process has just applied is seen and not run twice.
        while let next = try conn.transaction(.immediate, { () throws -> Migration? in
            try createTable(conn)
            let appliedNumbers = try checkApplied(conn, against: migrations)
            try refuseTakenNames(applied: appliedNumbers) { try conn.tableExists($0) }
            guard let pending = migrations.first(where: { !appliedNumbers.contains($0.number) }) else { return nil }
            do {
                try conn.executeScript(pending.sql)
            } catch let error as DatabaseError {
                throw MigrationError.failed(pending.fileName, error, appliedBefore: applied.map(\.fileName))
            }
            try conn.execute("""
                INSERT INTO \(quoteIdentifier(table))(id, name, checksum, applied_at) VALUES (?, ?, ?, ?)
                """, [pending.number, pending.fileName, pending.checksum, Date()])
            return pending
        }) {
            applied.append(next)
        }
        return applied
    }

    /// The applied migrations recorded in the table, in order (empty before the first run).
    ///
    /// - throws: `DatabaseError`.
    public func appliedMigrations(_ conn: Connection) throws -> [AppliedMigration] {
        guard try conn.tableExists(table) else { return [] }
        return try conn.fetchAll("SELECT id, name, checksum, applied_at FROM \(quoteIdentifier(table)) ORDER BY id")
            .map { row in
                AppliedMigration(number: try row.value(at: 0), name: try row.value(at: 1),
                                 checksum: try row.value(at: 2), appliedAt: Date.fromDatabaseValue(row[3]))
            }
    }

    /// The applied migrations recorded in the table, in order.
    ///
    /// - throws: `DatabaseError`.
    public func appliedMigrations(_ db: Database) throws -> [AppliedMigration] {
        try db.read { try appliedMigrations($0) }
    }

    private func createTable(_ conn: Connection) throws {
        try conn.execute("""
            CREATE TABLE IF NOT EXISTS \(quoteIdentifier(table)) (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                checksum TEXT NOT NULL,
                applied_at TEXT NOT NULL
            )
            """)
    }

    /// The numbers already applied, after checking each against its file.
    private func checkApplied(_ conn: Connection, against migrations: [Migration]) throws -> Set<Int> {
        let byNumber = Dictionary(uniqueKeysWithValues: migrations.map { ($0.number, $0) })
        var numbers: Set<Int> = []
        for record in try appliedMigrations(conn) {
            guard let migration = byNumber[record.number] else {
                throw MigrationError.unknownMigration(number: record.number, recordedName: record.name)
            }
            guard migration.checksum == record.checksum else {
                throw MigrationError.checksumMismatch(migration.fileName, recorded: record.checksum,
                                                      current: migration.checksum)
            }
            numbers.insert(record.number)
        }
        return numbers
    }
}
