import FoundationEssentials
import CSQLite
import FormBasics

/// An error from SQLite: its extended result code, SQLite's message and the
/// SQL that failed. The bound values are never kept: they may be secrets.
///
/// ```swift
/// do {
///     try db.write { try $0.execute("INSERT INTO person(email) VALUES (?)", [email]) }
/// } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
///     // a duplicate email
/// } catch DatabaseError.SQLITE_BUSY {
///     // another process held the write lock past the busy timeout
/// }
/// ```
///
/// See <https://www.sqlite.org/rescode.html>.
public struct DatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code, such as `SQLITE_CONSTRAINT_UNIQUE`.
    public let extendedResultCode: ResultCode
    /// SQLite's message, such as `UNIQUE constraint failed: person.email`.
    public let message: String?
    /// The SQL being run, if any.
    public let sql: String?

    public init(resultCode: ResultCode, message: String? = nil, sql: String? = nil) {
        self.extendedResultCode = resultCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code, such as `SQLITE_CONSTRAINT`.
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// One line: `SQLite error 19 (SQLITE_CONSTRAINT_UNIQUE): message - while executing `sql``.
    public var description: String {
        var text = "SQLite error \(resultCode.rawValue) (\(extendedResultCode))"
        if let message { text += ": \(message)" }
        if let sql { text += " - while executing `\(sql)`" }
        // Keep it one line: SQL and messages may span several.
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingSpaces() }
            .joined(separator: " ")
    }

    /// A foreign key refused the change: a key with no ON DELETE rule
    /// (`SQLITE_CONSTRAINT_FOREIGNKEY`), or one declared `RESTRICT`, which
    /// SQLite carries out as a trigger's `RAISE` with the same message.
    public var isForeignKeyViolation: Bool {
        extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY
            || (extendedResultCode == .SQLITE_CONSTRAINT_TRIGGER && message == "FOREIGN KEY constraint failed")
    }

    /// Another connection or process held a lock past the busy timeout.
    public var isBusy: Bool { resultCode == .SQLITE_BUSY || resultCode == .SQLITE_LOCKED }
    /// The database (or the connection) is read-only.
    public var isReadOnly: Bool { resultCode == .SQLITE_READONLY }
    /// A read-only connection met what an interrupted write left (a hot
    /// journal to roll back, a WAL to recover), which only a writer can undo.
    public var isInterruptedWrite: Bool {
        extendedResultCode == .SQLITE_READONLY_ROLLBACK || extendedResultCode == .SQLITE_READONLY_RECOVERY
    }
    /// The disk or the database is full.
    public var isFull: Bool { resultCode == .SQLITE_FULL }
    /// The file is damaged or is not an SQLite database.
    public var isCorrupt: Bool { resultCode == .SQLITE_CORRUPT || resultCode == .SQLITE_NOTADB }
    /// A UNIQUE, NOT NULL, CHECK, PRIMARY KEY or FOREIGN KEY constraint failed.
    public var isConstraint: Bool { resultCode == .SQLITE_CONSTRAINT }
    /// The file could not be opened (a missing directory, no permission, a directory).
    public var isCantOpen: Bool { resultCode == .SQLITE_CANTOPEN }

    /// The latest error of a connection handle.
    static func from(_ handle: OpaquePointer?, code: Int32, sql: String? = nil) -> DatabaseError {
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        // The handle's code can lag behind `code` (for example after sqlite3_reset): trust `code`.
        let resultCode = (extended & 0xFF) == (code & 0xFF) ? extended : code
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        return DatabaseError(resultCode: ResultCode(rawValue: resultCode), message: message, sql: sql)
    }
}

extension DatabaseError {
    // Mirrors of ResultCode's constants so that `catch DatabaseError.SQLITE_BUSY` reads naturally.
    public static let SQLITE_ERROR = ResultCode.SQLITE_ERROR
    public static let SQLITE_INTERNAL = ResultCode.SQLITE_INTERNAL
    public static let SQLITE_PERM = ResultCode.SQLITE_PERM
    public static let SQLITE_ABORT = ResultCode.SQLITE_ABORT
    public static let SQLITE_BUSY = ResultCode.SQLITE_BUSY
    public static let SQLITE_LOCKED = ResultCode.SQLITE_LOCKED
    public static let SQLITE_NOMEM = ResultCode.SQLITE_NOMEM
    public static let SQLITE_READONLY = ResultCode.SQLITE_READONLY
    public static let SQLITE_INTERRUPT = ResultCode.SQLITE_INTERRUPT
    public static let SQLITE_IOERR = ResultCode.SQLITE_IOERR
    public static let SQLITE_CORRUPT = ResultCode.SQLITE_CORRUPT
    public static let SQLITE_FULL = ResultCode.SQLITE_FULL
    public static let SQLITE_CANTOPEN = ResultCode.SQLITE_CANTOPEN
    public static let SQLITE_SCHEMA = ResultCode.SQLITE_SCHEMA
    public static let SQLITE_TOOBIG = ResultCode.SQLITE_TOOBIG
    public static let SQLITE_CONSTRAINT = ResultCode.SQLITE_CONSTRAINT
    public static let SQLITE_MISMATCH = ResultCode.SQLITE_MISMATCH
    public static let SQLITE_MISUSE = ResultCode.SQLITE_MISUSE
    public static let SQLITE_RANGE = ResultCode.SQLITE_RANGE
    public static let SQLITE_NOTADB = ResultCode.SQLITE_NOTADB
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode.SQLITE_CONSTRAINT_CHECK
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode.SQLITE_CONSTRAINT_NOTNULL
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode.SQLITE_CONSTRAINT_UNIQUE
}
