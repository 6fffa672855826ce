import CSQLite

/// An SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended
/// (`SQLITE_CONSTRAINT_UNIQUE`).
///
/// A primary code used as a pattern matches every extended code of its family:
///
/// ```swift
/// switch error.extendedResultCode {
/// case .SQLITE_CONSTRAINT: ...   // also matches SQLITE_CONSTRAINT_UNIQUE
/// default: ...
/// }
/// ```
///
/// See <https://www.sqlite.org/rescode.html>.
public struct ResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code: the low eight bits of an extended code.
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    /// True for a primary code (no extended bits).
    public var isPrimary: Bool { rawValue == rawValue & 0xFF }

    /// SQLite's English name for the code, such as `SQLITE_CONSTRAINT_UNIQUE`.
    public var description: String {
        // sqlite3_errstr gives a sentence, not the symbol; the symbol is what people search for.
        if let name = Self.names[rawValue] { return name }
        if let primary = Self.names[rawValue & 0xFF] { return "\(primary) (\(rawValue))" }
        return "SQLite result code \(rawValue)"
    }

    /// A primary pattern matches its extended codes; an extended pattern matches only itself.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }

    /// Lets `catch ResultCode.SQLITE_BUSY` (or `catch DatabaseError.SQLITE_BUSY`) match a `DatabaseError`.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }

    public static let SQLITE_OK = ResultCode(rawValue: CSQLite.SQLITE_OK)
    public static let SQLITE_ERROR = ResultCode(rawValue: CSQLite.SQLITE_ERROR)
    public static let SQLITE_INTERNAL = ResultCode(rawValue: CSQLite.SQLITE_INTERNAL)
    public static let SQLITE_PERM = ResultCode(rawValue: CSQLite.SQLITE_PERM)
    public static let SQLITE_ABORT = ResultCode(rawValue: CSQLite.SQLITE_ABORT)
    public static let SQLITE_BUSY = ResultCode(rawValue: CSQLite.SQLITE_BUSY)
    public static let SQLITE_LOCKED = ResultCode(rawValue: CSQLite.SQLITE_LOCKED)
    public static let SQLITE_NOMEM = ResultCode(rawValue: CSQLite.SQLITE_NOMEM)
    public static let SQLITE_READONLY = ResultCode(rawValue: CSQLite.SQLITE_READONLY)
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: CSQLite.SQLITE_INTERRUPT)
    public static let SQLITE_IOERR = ResultCode(rawValue: CSQLite.SQLITE_IOERR)
    public static let SQLITE_CORRUPT = ResultCode(rawValue: CSQLite.SQLITE_CORRUPT)
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: CSQLite.SQLITE_NOTFOUND)
    public static let SQLITE_FULL = ResultCode(rawValue: CSQLite.SQLITE_FULL)
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN)
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: CSQLite.SQLITE_PROTOCOL)
    public static let SQLITE_EMPTY = ResultCode(rawValue: CSQLite.SQLITE_EMPTY)
    public static let SQLITE_SCHEMA = ResultCode(rawValue: CSQLite.SQLITE_SCHEMA)
    public static let SQLITE_TOOBIG = ResultCode(rawValue: CSQLite.SQLITE_TOOBIG)
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT)
    public static let SQLITE_MISMATCH = ResultCode(rawValue: CSQLite.SQLITE_MISMATCH)
    public static let SQLITE_MISUSE = ResultCode(rawValue: CSQLite.SQLITE_MISUSE)
    public static let SQLITE_NOLFS = ResultCode(rawValue: CSQLite.SQLITE_NOLFS)
    public static let SQLITE_AUTH = ResultCode(rawValue: CSQLite.SQLITE_AUTH)
    public static let SQLITE_FORMAT = ResultCode(rawValue: CSQLite.SQLITE_FORMAT)
    public static let SQLITE_RANGE = ResultCode(rawValue: CSQLite.SQLITE_RANGE)
    public static let SQLITE_NOTADB = ResultCode(rawValue: CSQLite.SQLITE_NOTADB)
    public static let SQLITE_NOTICE = ResultCode(rawValue: CSQLite.SQLITE_NOTICE)
    public static let SQLITE_WARNING = ResultCode(rawValue: CSQLite.SQLITE_WARNING)
    public static let SQLITE_ROW = ResultCode(rawValue: CSQLite.SQLITE_ROW)
    public static let SQLITE_DONE = ResultCode(rawValue: CSQLite.SQLITE_DONE)

    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: CSQLite.SQLITE_BUSY | (2 << 8))
    public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: CSQLite.SQLITE_BUSY | (3 << 8))
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN | (2 << 8))
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (1 << 8))
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (3 << 8))
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (5 << 8))
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (6 << 8))
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (7 << 8))
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (8 << 8))
    /// A WAL database a read-only connection cannot recover (its index to rebuild).
    public static let SQLITE_READONLY_RECOVERY = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (1 << 8))
    /// A hot journal, left by an interrupted write, that a read-only connection cannot roll back.
    public static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (3 << 8))
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (4 << 8))
    /// The folder is not writable, and SQLite must create a file beside the
    /// database (a journal, or a WAL database's `-shm`, even to read it).
    public static let SQLITE_READONLY_DIRECTORY = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (6 << 8))

    private static let names: [Int32: String] = [
        0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM",
        4: "SQLITE_ABORT", 5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM",
        8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT",
        12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL",
        16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT",
        20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH",
        24: "SQLITE_FORMAT", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB", 27: "SQLITE_NOTICE",
        28: "SQLITE_WARNING", 100: "SQLITE_ROW", 101: "SQLITE_DONE",
        517: "SQLITE_BUSY_SNAPSHOT", 773: "SQLITE_BUSY_TIMEOUT", 270: "SQLITE_CANTOPEN_ISDIR",
        275: "SQLITE_CONSTRAINT_CHECK", 531: "SQLITE_CONSTRAINT_COMMITHOOK",
        787: "SQLITE_CONSTRAINT_FOREIGNKEY", 1043: "SQLITE_CONSTRAINT_FUNCTION",
        1299: "SQLITE_CONSTRAINT_NOTNULL", 1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
        1811: "SQLITE_CONSTRAINT_TRIGGER", 2067: "SQLITE_CONSTRAINT_UNIQUE",
        2323: "SQLITE_CONSTRAINT_VTAB", 2579: "SQLITE_CONSTRAINT_ROWID",
        1032: "SQLITE_READONLY_DBMOVED", 264: "SQLITE_READONLY_RECOVERY",
        520: "SQLITE_READONLY_CANTLOCK", 776: "SQLITE_READONLY_ROLLBACK", 1544: "SQLITE_READONLY_DIRECTORY",
        261: "SQLITE_BUSY_RECOVERY", 262: "SQLITE_LOCKED_SHAREDCACHE",
        266: "SQLITE_IOERR_READ", 522: "SQLITE_IOERR_SHORT_READ", 778: "SQLITE_IOERR_WRITE",
        267: "SQLITE_CORRUPT_VTAB", 523: "SQLITE_CORRUPT_SEQUENCE", 779: "SQLITE_CORRUPT_INDEX",
    ]
}
