import CLibPQ
import FormBasics
import FoundationEssentials
import Glibc

/// One libpq connection: statements prepared once per connection and reused,
/// parameters always bound (text format, types inferred by the server from
/// where they stand), never spliced into SQL. Not thread-safe: a
/// `PostgresPool` hands each connection to one caller at a time.
///
/// ```swift
/// let conn = try PostgresConnection(url: "postgres://app@db.example/app?sslmode=verify-full")
/// let result = try conn.execute("SELECT name FROM person WHERE id = $1", ["7"])
/// ```
///
/// See <https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING>.
public final class PostgresConnection {
    let handle: OpaquePointer
    /// Whether statements are prepared (named, kept by the server for the
    /// session); off behind a pooler that cannot carry them (see docs/scale.md).
    let preparesStatements: Bool
    /// Prepared statement names by SQL text.
    private var prepared: [String: String] = [:]
    /// Told each statement's SQL before it runs (`PostgresPool.traceStatements`).
    var trace: (@Sendable (String) -> Void)?
    /// Statements without parameters that wait to go with the next one, in
    /// one round trip (`PostgresConnection+Pipeline.swift`): a transaction's
    /// `BEGIN`, an import row's `SAVEPOINT` and the last row's `RELEASE`.
    var pendingStatements: [String] = []

    /// Connects with a URL (`postgres://` or `postgresql://`) or a libpq
    /// `key=value` string. Everything libpq reads there is passed through as
    /// it is: `host=/run/postgresql` for a Unix socket directory, `sslmode`,
    /// `sslrootcert`, `sslcert`, `sslkey`, `connect_timeout`, `application_name`.
    ///
    /// - throws: `PostgresError` (SQLSTATE 08001) with libpq's message;
    ///   `MissingLibraryError` when libpq is not installed.
    public init(url: String, preparesStatements: Bool = true) throws {
        try PostgresLibrary.load()
        guard let handle = PQconnectdb(url) else {
            throw PostgresError.connectionFailed("libpq could not allocate a connection")
        }
        self.handle = handle
        self.preparesStatements = preparesStatements
        // Every stored property is set: a throw from here on runs deinit, which finishes the handle.
        guard PQstatus(handle) == CONNECTION_OK else {
            // libpq repeats a URL it cannot read (`invalid IPv6 host address in URI: "postgres://…"`)
            // whole, and the token it could not read (perhaps the password) alone.
            throw PostgresError.connectionFailed(PostgresURL.redacting(Self.message(handle), of: url))
        }
        // The server's notices (`… already exists, skipping`) are not errors: not for stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // What FormStore reads and writes is in these forms, whatever the server, the database
        // (`ALTER DATABASE … SET`) or the environment (`PGCLIENTENCODING`) set: text as UTF-8
        // (else it is sent and read as another encoding), dates in ISO order, floats to
        // the last digit, bytes in hex, intervals as PostgreSQL writes them.
        try executeScript("SET client_encoding = 'UTF8'; SET DateStyle = 'ISO, MDY'; SET IntervalStyle = 'postgres'; "
                          + "SET extra_float_digits = 3; SET bytea_output = 'hex'")
    }

    deinit { PQfinish(handle) }

    /// False once the connection broke; a pool drops such a connection.
    public var isUsable: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The server process serving this connection (`pg_backend_pid()`), which
    /// a notification names as its sender.
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// True inside a transaction block (also a failed one, awaiting ROLLBACK).
    var isInTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

    /// Runs one statement with its parameters bound (`$1`, `$2` …; nil binds NULL).
    ///
    /// - throws: `PostgresError` with the server's SQLSTATE.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgresResult {
        if !pendingStatements.isEmpty { return try executeAfterPending(sql, parameters) }
        trace?(sql)
        return try withCStrings(parameters) { values in
            if preparesStatements {
                let name = try statementName(sql, parameterCount: parameters.count)
                return try check(PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0), sql: sql)
            }
            return try check(PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0), sql: sql)
        }
    }

    /// Runs SQL without parameters, several statements at once (a migration's script).
    public func executeScript(_ sql: String) throws {
        // A script's statements go in one round trip: the pending ones go first in it.
        try runScript(pendingStatements + [sql])
    }

    /// Sends the pending statements (`pendingStatements`) now, in one round trip.
    func sendPendingStatements() throws {
        if !pendingStatements.isEmpty { try runScript(pendingStatements) }
    }

    /// Runs `statements` as one script; none is pending after it.
    private func runScript(_ statements: [String]) throws {
        pendingStatements = []
        let script = statements.joined(separator: "; ")
        trace?(script)
        _ = try check(PQexec(handle, script), sql: script)
    }

    func statementName(_ sql: String, parameterCount: Int) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "formstore_\(prepared.count + 1)"
        _ = try check(PQprepare(handle, name, sql, Int32(parameterCount), nil), sql: sql)
        prepared[sql] = name
        return name
    }

    func check(_ result: OpaquePointer?, sql: String) throws -> PostgresResult {
        guard let result else { throw PostgresError.connectionLost(Self.message(handle), sql: sql) }
        return try check(result, owned: PostgresResult(result), sql: sql)
    }

    /// `owned` (which clears `result`) when it succeeded, else its error.
    func check(_ result: OpaquePointer, owned: PostgresResult, sql: String) throws -> PostgresResult {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return owned
        default:
            let state = formstore_pq_sqlstate(result).map { String(cString: $0) }
            let message = formstore_pq_primary_message(result).map { String(cString: $0) } ?? Self.message(handle)
            guard let state, isUsable else { throw PostgresError.connectionLost(message, sql: sql) }
            throw PostgresError(sqlState: state, message: message,
                                constraint: formstore_pq_constraint(result).map { String(cString: $0) }, sql: sql)
        }
    }

    static func message(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingSpacesAndNewlines()
    }
}

@available(*, unavailable)
extension PostgresConnection: Sendable {}

/// Calls `body` with the C strings of `strings` (NULL for nil), freed after.
///
/// - throws: `PostgresError` for a value holding NUL (`refusingNUL`).
func withCStrings<T>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) throws -> T) throws -> T {
    try refusingNUL(strings)
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    return try body(copies.map { $0.map { UnsafePointer($0) } })
}

/// Throws (SQLSTATE 22021) when a value holds NUL: a C string ends there, so
/// the rest would be lost without a word, and PostgreSQL's text cannot hold
/// the character anyway. Checked before anything is sent.
func refusingNUL(_ strings: [String?]) throws {
    guard strings.contains(where: { $0?.utf8.contains(0) == true }) else { return }
    throw PostgresError(sqlState: "22021",
                        message: "a value holds the character NUL (U+0000), which PostgreSQL's text cannot hold: nothing was written")
}
