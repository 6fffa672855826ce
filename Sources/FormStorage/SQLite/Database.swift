import FormBasics
import FoundationEssentials
import Synchronization

/// A database file shared by many tasks and threads: one writer connection
/// behind a lock, so writes run one at a time, and a small pool of reader
/// connections, so reads run side by side under WAL.
///
/// ```swift
/// let db = try Database(path: "app.sqlite")
/// let id = try db.write { conn in
///     try conn.execute("INSERT INTO note(body) VALUES (?)", ["hello"])
///     return conn.lastInsertedRowID
/// }
/// let count = try db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM note") }
/// ```
///
/// Every write transaction begins with `BEGIN IMMEDIATE` and waits up to the
/// busy timeout for other processes, so a write does not fail with
/// `SQLITE_BUSY` unless another process holds the file longer than that.
public final class Database: Sendable {
    /// The path (or `file:` URI) the database was opened with.
    public let path: String
    public let configuration: Configuration
    /// True when opening created the file: a database FormStore made (see
    /// `Configuration.JournalMode`).
    public let createdFile: Bool
    private let writer: SerializedConnection
    /// `nil` for an in-memory database (its connections cannot share it): reads then use the writer.
    private let readers: ReaderPool?
    /// Runs the writer's checkpoints off its commits (`WALCheckpointer`);
    /// `nil` for an in-memory or read-only database.
    private let checkpointer: WALCheckpointer?
    /// The threads the async API runs SQLite on (see `Database+Async.swift`).
    let threads = DatabaseThreads()
    /// The files `attach(_:as:)` added, attached to each reader before it is used.
    private let attachments = Mutex<[Attachment]>([])
    /// What `traceStatements(_:)` set, given to each connection before it is used.
    let tracer = Mutex<StatementTracer?>(nil)

    private struct Attachment: Sendable {
        var path: String
        var name: String
    }

    /// Opens the database, creating the file (mode 0600) when missing.
    ///
    /// - throws: `DatabaseError`, such as `SQLITE_CANTOPEN` or `SQLITE_NOTADB`.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        self.configuration = configuration
        let connection = try Connection(path: path, configuration: configuration)
        createdFile = connection.createdFile
        writer = SerializedConnection(connection)
        let isMemory = path.isEmpty || path == ":memory:"
            || (path.hasPrefix("file:") && (path.contains(":memory:") || path.contains("mode=memory")))
        if isMemory || configuration.readOnly {
            checkpointer = nil
        } else {
            var checkpointing = configuration
            checkpointing.journalMode = .unchanged
            checkpointing.createsMissingFile = false
            let checkpointer = WALCheckpointer { try Connection(path: path, configuration: checkpointing) }
            checkpointer.attach(to: connection)
            self.checkpointer = checkpointer
        }
        if isMemory || configuration.maximumReaderCount < 1 {
            readers = nil
        } else {
            var readerConfiguration = configuration
            readerConfiguration.readOnly = true
            readers = ReaderPool(maximum: configuration.maximumReaderCount) {
                try Connection(path: path, configuration: readerConfiguration)
            }
        }
    }

    deinit {
        // The writer closes after this: its checkpoints go back to SQLite first.
        if let checkpointer { writer.withConnection { checkpointer.detach(from: $0) } }
        // The readers close before the writer. The last connection to close a
        // WAL database copies the WAL into the file and removes it, and a reader,
        // opened read-only, cannot: closed last, it left every row of a short
        // run in the `-wal` file beside a database file of one page.
        readers?.closeAll()
    }

    /// Attaches another database file to the writer and to every reader under
    /// a schema name, so that one transaction spans both files. Must not be
    /// called inside `write` or `read`.
    ///
    /// ```swift
    /// try db.attach("/var/lib/app/side.sqlite", as: "side")
    /// try db.write { try $0.execute("INSERT INTO side.note(body) VALUES ('x')") }
    /// ```
    ///
    /// - throws: `DatabaseError` when the writer cannot open the file.
    public func attach(_ path: String, as name: String) throws {
        try writer.withConnection { try $0.attach(path, as: name) }
        attachments.withLock { $0.append(Attachment(path: path, name: name)) }
    }

    /// Whether `attach(_:as:)` attached a database under this name.
    public func isAttached(_ name: String) -> Bool {
        attachments.withLock { $0.contains { $0.name == name } }
    }

    /// Brings a reader up to the attachments made since it was opened.
    private func attachAll(to connection: Connection) throws {
        connection.use(tracer.withLock { $0 })
        for attachment in attachments.withLock({ $0 }) where !connection.attachedNames.contains(attachment.name) {
            try connection.attach(attachment.path, as: attachment.name)
        }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`) and returns its
    /// result: committed when it returns, rolled back when it throws. Writes
    /// wait for one another. Called inside another `write`, it becomes a savepoint.
    ///
    /// - throws: what `body` throws, or a `DatabaseError`.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try write(.immediate, body)
    }

    /// `write(_:)` in a transaction of `kind`: `.deferred` takes each file's
    /// write lock as a statement first writes it, so a write to one attached
    /// file locks no other (`FormStore`'s sidecar).
    public func write<T>(_ kind: TransactionKind, _ body: (Connection) throws -> T) throws -> T {
        try writer.withConnection { conn in
            try conn.transaction(kind) { try body(conn) }
        }
    }

    /// Runs `body` on the writer connection outside any transaction (for
    /// `VACUUM`, pragmas, or transactions of one's own). A transaction left open
    /// is rolled back.
    ///
    /// - throws: what `body` throws; `SQLITE_MISUSE` when it leaves a transaction open.
    public func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withConnection { conn in
            let wasInsideTransaction = conn.isInsideTransaction
            let result: T
            do {
                result = try body(conn)
            } catch {
                if !wasInsideTransaction { conn.rollbackIfNeeded() }
                throw error
            }
            if !wasInsideTransaction && conn.isInsideTransaction {
                conn.rollbackIfNeeded()
                throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                    message: "a transaction was left open and has been rolled back")
            }
            return result
        }
    }

    /// Runs `body` in a read transaction on a reader connection: it sees one
    /// consistent snapshot, and does not wait for writers. Writing fails with
    /// `SQLITE_READONLY`.
    ///
    /// - throws: what `body` throws, or a `DatabaseError`.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let readers else {
            return try writer.withConnection { conn in
                try conn.transaction(.deferred) { try body(conn) }
            }
        }
        return try readers.withConnection { conn in
            try attachAll(to: conn)
            return try conn.transaction(.deferred) { try body(conn) }
        }
    }

    /// Runs `body` on a reader connection outside any transaction: for one
    /// statement, which SQLite runs in a snapshot of its own, this saves the
    /// `BEGIN` and `COMMIT` of `read`. Several statements may each see a
    /// different snapshot.
    ///
    /// - throws: what `body` throws, or a `DatabaseError`.
    public func readWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let readers else { return try writer.withConnection(body) }
        return try readers.withConnection { conn in
            try attachAll(to: conn)
            return try body(conn)
        }
    }
}

/// The writer connection behind a lock. The lock is recursive so that a
/// `write` inside a `write` on the same thread nests (as a savepoint) instead
/// of deadlocking.
private final class SerializedConnection: @unchecked Sendable {
    private let lock = Lock(recursive: true)
    private let connection: Connection

    init(_ connection: Connection) {
        self.connection = connection
    }

    func withConnection<T>(_ body: (Connection) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}

/// Reader connections, opened on demand up to `maximum`; a reader is used by
/// one thread at a time, and callers wait when all are busy.
private final class ReaderPool: @unchecked Sendable {
    private let condition = WaitCondition()
    // Read and written only while `condition` is locked, so no two accesses
    // overlap: unchecked, the run-time exclusivity checks of a load's
    // check-out and check-in (three, with their access set) are spared (issue 14).
    @exclusivity(unchecked) private var idle: [Connection] = []
    @exclusivity(unchecked) private var openCount = 0
    /// Threads waiting for a reader: a check-in signals only when there are some.
    @exclusivity(unchecked) private var waiting = 0
    private let maximum: Int
    private let open: () throws -> Connection

    init(maximum: Int, open: @escaping () throws -> Connection) {
        self.maximum = maximum
        self.open = open
    }

    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    private func checkOut() throws -> Connection {
        condition.lock()
        while idle.isEmpty && openCount >= maximum {
            waiting += 1
            condition.wait()
            waiting -= 1
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        openCount += 1
        condition.unlock()
        do {
            return try open()
        } catch {
            condition.lock()
            openCount -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// Closes every reader (all are idle once the database is released).
    func closeAll() {
        condition.lock()
        openCount -= idle.count
        idle.removeAll()
        condition.unlock()
    }

    private func checkIn(_ connection: Connection) {
        condition.lock()
        idle.append(connection)
        if waiting > 0 { condition.signal() }
        condition.unlock()
    }
}
