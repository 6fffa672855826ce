import FormBasics
/// An error from PostgreSQL: its SQLSTATE, the server's message and the SQL
/// that failed. The bound values are never kept: they may be secrets.
///
/// ```swift
/// do {
///     try pool.write { try $0.execute("INSERT INTO person(email) VALUES ($1)", [.text(email)]) }
/// } catch let error as PostgresError where error.isUniqueViolation {
///     // a duplicate email
/// }
/// ```
///
/// See <https://www.postgresql.org/docs/current/errcodes-appendix.html>.
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The five-character SQLSTATE, such as `23505`; `08006` when the connection was lost.
    public let sqlState: String
    /// The server's (or libpq's) message, such as `duplicate key value violates unique constraint …`.
    public let message: String
    /// The constraint that failed, when the server names one.
    public let constraint: String?
    /// The SQL being run, if any.
    public let sql: String?

    public init(sqlState: String, message: String, constraint: String? = nil, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
        self.sql = sql
    }

    /// One line: `PostgreSQL error 23505: message - while executing `sql``.
    public var description: String {
        var text = "PostgreSQL error \(sqlState): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingSpaces() }
            .joined(separator: " ")
    }

    /// The column the server's message names (`null value in column "qty" …`,
    /// `value too long …` has none): the field a refusal is about.
    public var namedColumn: String? {
        guard let start = message.firstRange(of: "column \"") else { return nil }
        let rest = message[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    /// A UNIQUE or PRIMARY KEY constraint failed (23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// A FOREIGN KEY constraint failed (23503).
    public var isForeignKeyViolation: Bool { sqlState == "23503" }
    /// A CHECK constraint failed (23514).
    public var isCheckViolation: Bool { sqlState == "23514" }
    /// Any integrity constraint failed (class 23: NOT NULL, unique, foreign key, check, exclusion).
    public var isConstraint: Bool { sqlState.hasPrefix("23") }
    /// A serializable transaction could not be serialized (40001).
    public var isSerializationFailure: Bool { sqlState == "40001" }
    /// The server broke a deadlock by failing this transaction (40P01).
    public var isDeadlock: Bool { sqlState == "40P01" }
    /// The connection is gone or could not be made (class 08, and 57P01 admin shutdown).
    public var isConnectionLost: Bool { sqlState.hasPrefix("08") || sqlState == "57P01" }
    /// Running the transaction again may succeed: what `PostgresPool.write` retries,
    /// and what the command reports as 75 (temporary failure) once retries ran out.
    public var isRetryable: Bool { isSerializationFailure || isDeadlock }
    /// A lock another transaction held was not had (55P03): waited for past
    /// the pool's `lockTimeout`, or asked for with NOWAIT by the database's
    /// own code. Not retried (it would wait as long again): try again later.
    public var isLockTimeout: Bool { sqlState == "55P03" }

    /// A connection that could not be made (libpq's own message, which names
    /// the host; a URL it repeats is given without its password).
    static func connectionFailed(_ message: String) -> PostgresError {
        PostgresError(sqlState: "08001", message: message)
    }

    /// A connection that broke while in use.
    static func connectionLost(_ message: String, sql: String?) -> PostgresError {
        PostgresError(sqlState: "08006", message: message, sql: sql)
    }

    /// A result FormStore did not expect (a statement that returned no rows where it must).
    static func unexpected(_ message: String, sql: String?) -> PostgresError {
        PostgresError(sqlState: "XX000", message: message, sql: sql)
    }
}
