import FormBasics
import FoundationEssentials
import Glibc
import Synchronization

/// A small pool of connections to one PostgreSQL database, for services:
/// at most `maxConnections` open at once; a caller beyond that waits for one
/// to come back. A connection that broke is dropped and a new one made.
///
/// ```swift
/// let pool = try PostgresPool(url: "postgres://app@db/app", maxConnections: 8)
/// let count = try pool.read { try $0.execute("SELECT count(*) FROM person").text(row: 0, column: 0) }
/// ```
///
/// `@unchecked Sendable`: the idle list and the count are only touched under `condition`.
public final class PostgresPool: @unchecked Sendable {
    public let url: String
    public let maxConnections: Int
    /// Passed to each connection: see `PostgresConnection.init(url:preparesStatements:)`.
    public let preparesStatements: Bool
    /// How many times `write` runs a transaction that failed on a serialization
    /// failure or a deadlock before it throws.
    public let retries: Int
    /// How long a statement waits for another transaction's lock (nil: the server's setting).
    public let lockTimeout: Duration?
    /// Every transaction read-only (`default_transaction_read_only`): the
    /// server refuses any write, a table's or the schema's (SQLSTATE 25006).
    public let readOnly: Bool
    private let condition = WaitCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0
    /// The server processes of the open connections: a notification from one of them is this pool's own commit.
    private var backendPIDs: Set<Int32> = []
    private let tracer = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Makes the first connection at once, so a bad URL or an unreachable
    /// server is reported here.
    ///
    /// - throws: `PostgresError` when the first connection fails.
    ///
    /// - parameter lockTimeout: how long a statement waits for a lock another
    ///   transaction holds before it fails (`lock_timeout`, SQLSTATE 55P03,
    ///   `PostgresError.isLockTimeout`); nil waits as the server is set to.
    /// - parameter readOnly: every transaction read-only, so that a command
    ///   that only reads cannot write, by mistake or otherwise.
    public init(url: String, maxConnections: Int = 4, preparesStatements: Bool = true, retries: Int = 8,
                lockTimeout: Duration? = nil, readOnly: Bool = false) throws {
        self.url = url
        self.readOnly = readOnly
        self.maxConnections = max(1, maxConnections)
        self.preparesStatements = preparesStatements
        self.retries = retries
        self.lockTimeout = lockTimeout
        let first = try connect()
        idle = [first]
        open = 1
        backendPIDs = [first.backendPID]
    }

    /// A new connection, its lock timeout set.
    private func connect() throws -> PostgresConnection {
        let conn = try PostgresConnection(url: url, preparesStatements: preparesStatements)
        if let lockTimeout {
            let milliseconds = lockTimeout.components.seconds * 1000 + lockTimeout.components.attoseconds / 1_000_000_000_000_000
            // 0 would wait for ever in PostgreSQL: the shortest wait it takes is 1 ms.
            try conn.execute("SELECT pg_catalog.set_config('lock_timeout', $1, false)", [String(max(milliseconds, 1))])
        }
        if readOnly { try conn.execute("SELECT pg_catalog.set_config('default_transaction_read_only', 'on', false)") }
        return conn
    }

    /// Calls `handler` with the SQL of each statement the pool's connections
    /// run from now on (nil stops it): how a test counts what a store reads.
    public func traceStatements(_ handler: (@Sendable (String) -> Void)?) {
        tracer.withLock { $0 = handler }
    }

    /// Whether the server process `pid` serves one of this pool's connections.
    public func ownsBackend(_ pid: Int32) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return backendPIDs.contains(pid)
    }

    /// Runs `body` on a connection of the pool, outside any transaction (one
    /// statement is its own consistent snapshot).
    @discardableResult
    public func read<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let conn = try checkOut()
        defer { checkIn(conn) }
        return try body(conn)
    }

    /// Runs `body` in one transaction, committed when it returns, rolled back
    /// when it throws. A transaction failed by a serialization failure or a
    /// deadlock is run again, up to `retries` times, after a short random pause.
    ///
    /// - throws: what `body` throws, or `PostgresError` (`isRetryable` once retries ran out).
    @discardableResult
    public func write<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try read { conn in
                    // BEGIN goes with the transaction's first statement, in one round trip.
                    conn.pendingStatements = ["BEGIN"]
                    do {
                        let value = try body(conn)
                        // A transaction that ran no statement was never begun; what else waits goes with the COMMIT.
                        if conn.pendingStatements.first == "BEGIN" { conn.pendingStatements = [] } else { try conn.execute("COMMIT") }
                        return value
                    } catch {
                        conn.pendingStatements = []
                        if conn.isUsable && conn.isInTransaction { _ = try? conn.execute("ROLLBACK") }
                        throw error
                    }
                }
            } catch let error as PostgresError where error.isRetryable && attempt < retries {
                attempt += 1
                usleep(UInt32.random(in: 1_000...(5_000 * UInt32(attempt))))
            }
        }
    }

    private func checkOut() throws -> PostgresConnection {
        condition.lock()
        while idle.isEmpty && open >= maxConnections { condition.wait() }
        if let conn = idle.popLast() {
            condition.unlock()
            conn.trace = tracer.withLock { $0 }
            return conn
        }
        open += 1
        condition.unlock()
        do {
            let conn = try connect()
            condition.lock()
            backendPIDs.insert(conn.backendPID)
            condition.unlock()
            conn.trace = tracer.withLock { $0 }
            return conn
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func checkIn(_ conn: PostgresConnection) {
        condition.lock()
        if conn.isUsable && !conn.isInTransaction {
            idle.append(conn)
        } else {
            open -= 1
            backendPIDs.remove(conn.backendPID)
        }
        condition.signal()
        condition.unlock()
    }
}
