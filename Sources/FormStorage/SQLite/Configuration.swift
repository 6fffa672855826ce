/// How a connection is opened and set up.
///
/// ```swift
/// var config = Configuration()
/// config.busyTimeout = .seconds(10)
/// config.synchronous = .normal
/// let db = try Database(path: "app.sqlite", configuration: config)
/// ```
public struct Configuration: Sendable, Hashable {
    /// `PRAGMA synchronous`: how hard SQLite works to survive a power loss.
    /// See <https://www.sqlite.org/pragma.html#pragma_synchronous>.
    public enum Synchronous: String, Sendable, Hashable, CaseIterable {
        /// Every commit is durable (the default).
        case full = "FULL"
        /// Safe from corruption in WAL mode; a power loss may lose the last commits.
        case normal = "NORMAL"
    }

    /// Whether a connection may change the file's journal mode.
    ///
    /// The file is the user's: FormStore switches to WAL only where it was
    /// asked to, so an application's database keeps the journal it chose.
    public enum JournalMode: Sendable, Hashable {
        /// WAL for a file the connection creates; any other file keeps its
        /// journal mode (the default).
        case walForNewFiles
        /// Switch every file to WAL (persistent: it stays WAL for every client).
        case wal
        /// Never change the journal mode, not even of a new file.
        case unchanged
    }

    /// Open without writing; the file must exist.
    public var readOnly: Bool = false
    /// Create the database when it is missing (the default). Off, a missing
    /// file fails with `SQLITE_CANTOPEN` — for a `file:` URI too, whatever its
    /// `mode=rwc` asks: only commands that mean to create a database do.
    public var createsMissingFile: Bool = true
    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    public var busyTimeout: Duration = .seconds(5)
    public var synchronous: Synchronous = .full
    /// See `JournalMode`; `.walForNewFiles` by default.
    public var journalMode: JournalMode = .walForNewFiles
    /// `PRAGMA foreign_keys`.
    public var foreignKeys: Bool = true
    /// Lets the database's triggers and views call functions SQLite does not
    /// mark innocuous (`PRAGMA trusted_schema`). Off: a database from someone
    /// else cannot make FormStore run them (docs/fidelity.md, hostile input).
    public var trustsSchema: Bool = false
    /// Reader connections a `Database` keeps for concurrent reads.
    public var maximumReaderCount: Int = 4

    public init() {}

    /// The busy timeout in whole milliseconds, as `sqlite3_busy_timeout` takes it.
    public var busyTimeoutMilliseconds: Int32 {
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}
