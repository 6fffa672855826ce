import CSQLite
import FormBasics
import FoundationEssentials
import Glibc
import Synchronization

/// One SQLite connection: opens (and creates) a file, sets it up, runs SQL and
/// keeps prepared statements for reuse.
///
/// ```swift
/// let conn = try Connection(path: "app.sqlite")
/// try conn.execute("CREATE TABLE IF NOT EXISTS note(id INTEGER PRIMARY KEY, body TEXT)")
/// try conn.execute("INSERT INTO note(body) VALUES (?)", ["hello"])
/// let bodies = try conn.fetchAll("SELECT body FROM note").map { try $0.value(at: 0, as: String.self) }
/// ```
///
/// Not `Sendable`: use it from one thread at a time. `Database` shares
/// connections safely between tasks. See <https://www.sqlite.org/c3ref/open.html>.
public final class Connection {
    /// Whether this transaction checks foreign keys at its commit (`PRAGMA
    /// defer_foreign_keys`, which the commit turns off): FormStore's own
    /// check of a reference before a write then waits for the commit too.
    public internal(set) var foreignKeyChecksDeferred = false
    /// The path (or `file:` URI) it was opened with.
    public let path: String
    public let configuration: Configuration
    let handle: ConnectionHandle
    private var statementCache: [String: Statement] = [:] {
        didSet { recentlyCached.removeAll() }
    }
    /// The last statements `cachedStatement` prepared or found in the
    /// cache, with their SQL, the latest first: a load asks for the same text
    /// again and again, a save for the same dozen in turn, and comparing a
    /// string with the one it was copied from costs next to nothing, where
    /// hashing a long SELECT or UPDATE per statement showed in their
    /// profiles (issue 14).
    ///
    /// Unchecked for overlapping access: a connection is used by one thread
    /// at a time, and nothing called while the list is walked or changed
    /// reaches back into it; the run-time check cost every statement a load
    /// or save asks for (issue 14).
    @exclusivity(unchecked) private var recentlyCached: [(sql: String, statement: Statement)] = []
    /// How many `recentlyCached` keeps: more than a save's statements (begin,
    /// the read, the schema versions, the update, the history's, the commit).
    private static let recentLimit = 16
    /// Depth of `transaction` calls, naming savepoints uniquely.
    var transactionDepth = 0
    /// True when opening created the file (it did not exist): a file FormStore
    /// made, which gets WAL under `Configuration.JournalMode.walForNewFiles`.
    public let createdFile: Bool
    /// The schema names of the databases `attach(_:as:)` added.
    public private(set) var attachedNames: Set<String> = []
    /// Hears each statement run (`Connection+Tracing.swift`).
    var tracer: StatementTracer?
    /// Tables seen without triggers, with the schema version they were seen
    /// at (`Connection+Triggers.swift`).
    var triggerFreeTables: [String: Int64] = [:]
    /// The main and temporary schema versions at which no trigger was found
    /// in either (`hasNoTriggersAnywhere()`).
    var triggerFreeSchemas: [Int64]?
    /// FormStore's own tables looked for, by name: in `main` or the sidecar,
    /// the schema version they were looked for at, and whether they were
    /// there (`FormStore.ownTableExists`).
    var ownTablesSeen: [String: (isMain: Bool, schemaVersion: Int64, exists: Bool)] = [:]
    /// The row the last save on this connection left (`SavedRow`).
    var savedRow: SavedRow?
    /// Tables and views described, by the name asked for, with the schema
    /// version they were read at (`tableInfo(_:)`).
    var tablesDescribed: [String: (schemaVersion: Int64, info: TableInfo)] = [:]
    /// `main`'s schema version as `holdingMainSchemaVersion` holds it.
    var heldMainSchemaVersion = HeldSchemaVersion.notHeld

    enum HeldSchemaVersion {
        /// Outside `holdingMainSchemaVersion`: every question reads it.
        case notHeld
        /// Inside, not read yet.
        case unread
        case read(Int64)
    }

    /// Opens a connection. A missing file is created with mode 0600 (unless
    /// read-only); the connection gets foreign keys, the busy timeout and the
    /// synchronous level of `configuration`, and WAL journaling only as
    /// `configuration.journalMode` allows: by default a file that existed keeps
    /// its journal mode, and nothing is written to it by opening.
    ///
    /// - parameter path: a file path, `":memory:"`, or a `file:` URI.
    /// - throws: `DatabaseError`: `SQLITE_CANTOPEN` for a missing directory,
    ///   `SQLITE_NOTADB` for a file that is not a database.
    ///
    /// A read-only connection to a database an interrupted write left to be
    /// recovered (a hot rollback journal, a WAL to rebuild its index from)
    /// cannot read it: the file is recovered first, through a connection that
    /// may write, as any SQLite client's first read would; where that cannot
    /// write either, the error says so (`SQLITE_READONLY_ROLLBACK`).
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        do {
            try self.init(opening: path, configuration: configuration)
        } catch let error as DatabaseError where configuration.readOnly && error.isInterruptedWrite {
            try Self.recoverInterruptedWrite(path, configuration: configuration)
            try self.init(opening: path, configuration: configuration)
        }
    }

    private init(opening path: String, configuration: Configuration) throws {
        self.path = path
        self.configuration = configuration
        (self.handle, self.createdFile) = try Self.open(path: path, configuration: configuration)
        try setUp()
    }

    /// Rolls back what an interrupted write left, by opening the file to
    /// write and reading it, which is what recovers it in SQLite.
    private static func recoverInterruptedWrite(_ path: String, configuration: Configuration) throws {
        var writing = configuration
        writing.readOnly = false
        writing.createsMissingFile = false
        writing.journalMode = .unchanged
        do {
            _ = try Connection(opening: path, configuration: writing)
        } catch let error as DatabaseError where error.isReadOnly || error.isInterruptedWrite {
            throw DatabaseError(resultCode: .SQLITE_READONLY_ROLLBACK,
                                message: "an interrupted write left the database to be recovered (its -journal or "
                                    + "-wal file), which needs write access to it and its folder")
        }
    }

    deinit {
        // Finalize before the handle closes so the close is not deferred.
        statementCache.removeAll()
    }

    private static func open(path: String, configuration: Configuration) throws -> (ConnectionHandle, created: Bool) {
        let isFile = isPlainFilePath(path)
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let creates = !configuration.readOnly && configuration.createsMissingFile
        if configuration.readOnly {
            flags |= SQLITE_OPEN_READONLY
        } else {
            // Without SQLITE_OPEN_CREATE, a URI's `mode=rwc` is refused rather than obeyed.
            flags |= SQLITE_OPEN_READWRITE | (creates ? SQLITE_OPEN_CREATE : 0)
        }
        return try FileCreationMask.restricted {
            let created = isFile && creates ? try createFileIfMissing(path) : false
            var pointer: OpaquePointer?
            let code = sqlite3_open_v2(path, &pointer, flags, nil)
            // Own the handle before checking: a failed open still allocates one to close.
            let handle = pointer.map(ConnectionHandle.init)
            guard code == SQLITE_OK, let handle else {
                throw DatabaseError.from(pointer, code: code)
            }
            sqlite3_extended_result_codes(handle.pointer, 1)
            try guardAgainstTheSchema(handle, trusting: configuration.trustsSchema)
            return (handle, created)
        }
    }

    /// A database may come from anyone: defensive mode (no writes to shadow
    /// tables or the schema by ordinary SQL), no extension loading, and unless
    /// the caller trusts it, triggers and views may call only innocuous
    /// functions (<https://www.sqlite.org/security.html>).
    private static func guardAgainstTheSchema(_ handle: ConnectionHandle, trusting: Bool) throws {
        for (code, what) in [(formstore_sqlite3_db_config_defensive(handle.pointer, 1), "defensive mode"),
                             (formstore_sqlite3_db_config_load_extension(handle.pointer, 0), "extension loading"),
                             (formstore_sqlite3_db_config_trusted_schema(handle.pointer, trusting ? 1 : 0),
                              "trusted_schema")] where code != SQLITE_OK {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "could not set \(what)")
        }
    }

    /// True for a path to a file on disk, as opposed to `:memory:`, a temporary
    /// database (`""`) or a `file:` URI, which SQLite opens itself.
    public static func isPlainFilePath(_ path: String) -> Bool {
        path != ":memory:" && !path.isEmpty && !path.hasPrefix("file:")
    }

    /// The file behind a path or `file:` URI (`file:app.db?mode=rw`,
    /// `file:///srv/app.db`); `nil` for memory and temporary databases.
    public static func file(behind database: String) -> String? {
        if database.isEmpty || database == ":memory:" { return nil }
        guard database.hasPrefix("file:") else { return database }
        var rest = database.dropFirst("file:".count)
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        if rest.hasPrefix("//") {
            // file://host/path: only an empty host or localhost names a local file.
            rest = rest.dropFirst(2)
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            rest = rest[slash...]
        }
        if database.contains("mode=memory") || rest == ":memory:" || rest.isEmpty { return nil }
        return String(rest).percentDecoded() ?? String(rest)
    }

    /// Creates the file with mode 0600 so it is never readable by others, not
    /// even briefly; returns whether it was created (`O_EXCL` tells, without a race).
    ///
    /// `O_EXCL | O_NOFOLLOW`: a symbolic link at the path is never followed to
    /// create its target — a dangling link planted at `--db` must not make a
    /// command run as root create a file wherever the link points. An existing
    /// database reached through a link opens as before.
    private static func createFileIfMissing(_ path: String) throws -> Bool {
        let created = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if created >= 0 {
            close(created)
            return true
        }
        let fd = errno == EEXIST ? Glibc.open(path, O_RDWR | O_CLOEXEC) : -1
        guard fd >= 0 else {
            var link = stat()
            if errno == ENOENT, lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "unable to open database file \(path): "
                                    + "it is a symbolic link to a file that does not exist (not followed)")
            }
            let reason = String(cString: strerror(errno))
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN,
                                message: "unable to open database file \(path): \(reason)")
        }
        close(fd)
        return false
    }

    private func setUp() throws {
        // The busy timeout, through a handler an async job's cancellation stops
        // (`PRAGMA busy_timeout` reads 0: the wait is `configuration.busyTimeout`).
        installInterruptibleWaits()
        for function in Self.formStoreFunctions { try register(function) }
        // The first statement reads the header: a file that is not a database fails here.
        _ = try fetchAll("SELECT count(*) FROM sqlite_schema")
        if !configuration.readOnly {
            switch configuration.journalMode {
            case .wal: try switchToWAL()
            case .walForNewFiles where createdFile: try switchToWAL()
            case .walForNewFiles, .unchanged: break
            }
        }
        try executeScript("PRAGMA foreign_keys = \(configuration.foreignKeys ? "ON" : "OFF")")
        try executeScript("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
    }

    /// Switches the database to WAL journaling, which is persistent: the file
    /// stays WAL for every client. Only for a file FormStore made or was asked
    /// to take over (`formstore init`, `FormStore.initialize()`).
    ///
    /// - throws: `DatabaseError` when the file cannot use WAL.
    public func switchToWAL() throws {
        try FileCreationMask.restricted {
            // Switching to WAL creates the -wal and -shm files: keep them private too.
            // `main.`: without a schema the pragma would switch every attached database too.
            let mode = try fetchOne("PRAGMA main.journal_mode = WAL")?[0]
            if Self.isPlainFilePath(path), mode != .text("wal") {
                throw DatabaseError(resultCode: .SQLITE_ERROR,
                                    message: "could not switch to WAL journaling", sql: "PRAGMA main.journal_mode = WAL")
            }
        }
    }

    /// Attaches another database file under a schema name (`ATTACH DATABASE`);
    /// unqualified table names then resolve in `main` first, then here.
    /// Outside a transaction only, as SQLite requires.
    ///
    /// - throws: `DatabaseError` when the file cannot be opened.
    public func attach(_ path: String, as name: String) throws {
        guard !attachedNames.contains(name) else { return }
        try makeStatement("ATTACH DATABASE ? AS \(quoteIdentifier(name))").execute([path])
        attachedNames.insert(name)
    }

    // MARK: Statements

    /// The prepared statement for this SQL, prepared on first use and reused afterwards.
    ///
    /// ```swift
    /// let a = try conn.cachedStatement("SELECT 1")
    /// let b = try conn.cachedStatement("SELECT 1")   // a === b
    /// ```
    ///
    /// - throws: `DatabaseError` for SQL that does not compile.
    public func cachedStatement(_ sql: String) throws -> Statement {
        for index in recentlyCached.indices where recentlyCached[index].sql == sql {
            recentlyCached[index].statement.reset()
            return recentlyCached[index].statement
        }
        let statement: Statement
        if let cached = statementCache[sql] {
            cached.reset()
            statement = cached
        } else {
            statement = try Statement(sql: sql, handle: handle)
            statementCache[sql] = statement
        }
        if recentlyCached.count == Self.recentLimit { recentlyCached.removeLast() }
        recentlyCached.insert((sql, statement), at: 0)
        return statement
    }

    /// A new, uncached prepared statement, for SQL run once.
    ///
    /// - throws: `DatabaseError` for SQL that does not compile.
    public func makeStatement(_ sql: String) throws -> Statement {
        try Statement(sql: sql, handle: handle)
    }

    /// Finalizes every cached statement (needed before some schema changes, such as `VACUUM INTO` or closing).
    public func clearStatementCache() {
        statementCache.removeAll()
    }

    // MARK: Running SQL

    /// Runs one SQL command with bound arguments, through the statement cache.
    ///
    /// - throws: `DatabaseError`.
    public func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try cachedStatement(sql).execute(arguments)
    }

    /// Runs several `;`-separated SQL commands without arguments (a migration, a schema).
    ///
    /// - throws: `DatabaseError` naming the failing command.
    public func executeScript(_ sql: String) throws {
        try sql.withCString { start in
            var current = start
            while current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = JSONSchemaTrust.prepare(current, on: handle.pointer, &statement, &tail)
                let begin = current
                let end = tail ?? current
                // The statement's text, for an error only: every connection runs this as it opens.
                func trimmed() -> String {
                    let command = end > begin
                        ? String(decoding: UnsafeRawBufferPointer(start: begin, count: begin.distance(to: end)),
                                 as: UTF8.self)
                        : String(cString: begin)
                    return command.trimmingSpacesAndNewlines()
                }
                guard code == SQLITE_OK else {
                    sqlite3_finalize(statement)
                    throw DatabaseError.from(handle.pointer, code: code, sql: trimmed())
                }
                // A statement is nil for whitespace or a comment.
                if let statement {
                    var step: Int32
                    repeat { step = sqlite3_step(statement) } while step == SQLITE_ROW
                    let error = step == SQLITE_DONE ? nil : DatabaseError.from(handle.pointer, code: step, sql: trimmed())
                    sqlite3_finalize(statement)
                    if let error { throw error }
                }
                guard end > current else { return }
                current = end
            }
        }
    }

    /// Every row of a query.
    ///
    /// - throws: `DatabaseError`.
    public func fetchAll(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try cachedStatement(sql).fetchAll(arguments)
    }

    /// The first row of a query, if any.
    ///
    /// - throws: `DatabaseError`.
    public func fetchOne(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
        try cachedStatement(sql).fetchOne(arguments)
    }

    /// The first column of the first row, converted; `nil` when there is no row.
    ///
    /// ```swift
    /// let count = try conn.fetchValue(Int.self, "SELECT count(*) FROM note")
    /// ```
    ///
    /// - throws: `DatabaseError` (`SQLITE_MISMATCH` when the value does not convert).
    public func fetchValue<T: DatabaseValueConvertible>(_ type: T.Type, _ sql: String,
                                                        _ arguments: StatementArguments = []) throws -> T? {
        guard let row = try fetchOne(sql, arguments), row.count > 0 else { return nil }
        return try row.value(at: 0, as: T.self)
    }

    // MARK: State

    /// True between `BEGIN` and `COMMIT`/`ROLLBACK` (SQLite's autocommit mode is off).
    public var isInsideTransaction: Bool { sqlite3_get_autocommit(handle.pointer) == 0 }

    /// The rowid of the latest successful INSERT.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle.pointer) }

    /// Rows changed by the latest INSERT, UPDATE or DELETE.
    public var changesCount: Int { Int(sqlite3_changes64(handle.pointer)) }
}

@available(*, unavailable)
extension Connection: Sendable {}
