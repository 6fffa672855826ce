import FormStoragePostgres

extension CLIError {
    /// PostgreSQL's errors, classified as SQLite's are (README's exit-code table):
    ///
    /// | error | exit |
    /// | --- | --- |
    /// | `PostgresError` serialization failure, deadlock (after retries), lock not available | 75 |
    /// | `PostgresError` statement cancelled (`statement_timeout`) | 75 |
    /// | `PostgresError` connection failed or lost, insufficient privilege, read-only transaction | 74 |
    /// | `PostgresError` the server has no such database | 66 |
    /// | `PostgresError` constraint (class 23), data exception (class 22), a trigger's exception (P0001, P0004), a value for a GENERATED ALWAYS column | 65 |
    /// | `PostgresError` a write a view cannot take (55000, 0A000) | 65 |
    /// | `PostgresStoreError` unknown table / other | 66 / 65 |
    ///
    /// Only the server's primary message is shown: its detail line may quote
    /// values, and the URL, which may hold a password, is never repeated.
    static func classifyingPostgres(_ error: any Error, database: String) -> CLIError? {
        switch error {
        case let error as PostgresError:
            if error.isLockTimeout {
                return .conflict("\(database) is locked: another transaction held a lock past the busy timeout "
                                 + "(FORMSTORE_BUSY_TIMEOUT_MS); nothing was changed (try again)")
            }
            if error.isRetryable {
                return .conflict("\(database): another transaction held the rows (\(error.message)); nothing was saved (try again)")
            }
            if error.isConnectionLost {
                // libpq's first line says what failed; the next ones only guess why.
                let firstLine = error.message.split(whereSeparator: \.isNewline).first.map(String.init) ?? error.message
                // A server that answered, with no such database: not found, as a missing file is.
                if firstLine.contains("FATAL:  database \""), firstLine.hasSuffix("does not exist") {
                    return .notFound("no PostgreSQL database: \(firstLine)")
                }
                return .storage("cannot reach the PostgreSQL database: \(firstLine)")
            }
            // 57014: the server cancelled the statement (its statement_timeout, or an administrator):
            // a moment's, as a lock held too long is, so "try again" (75).
            if error.sqlState == "57014" {
                return .conflict("\(database): \(error.message.singleLine) (the server's statement_timeout, or a cancel "
                                 + "request): nothing was changed (try again)")
            }
            // 42501: a privilege the role lacks, on a read as on a write (FormStore's own tables need
            // theirs too: docs/fidelity.md); 25006: a read-only transaction or server.
            // A row the table's row-level security lets this role neither insert nor leave so: the row's
            // problem (the same 42501 as a missing privilege), refused as a value is.
            if error.sqlState == "42501", error.message.contains("row-level security policy") {
                return .validation("\(error.message.singleLine) (the row-level security does not let this role write such a row)")
            }
            if error.sqlState == "42501" {
                return .storage("cannot use \(database): \(error.message) (this role lacks the privilege)")
            }
            if error.sqlState == "25006" {
                return .storage("cannot write \(database): \(error.message)")
            }
            // 428C9: a value given for a GENERATED ALWAYS column, which the server fills in.
            // P0001, P0004: a trigger raised an exception (or failed an assertion) refusing the row,
            // as SQLite's RAISE(ABORT, …) does.
            if error.isRowProblem || error.sqlState == "428C9" {
                return .validation(error.message)
            }
            // A view that cannot be updated, or a column of one (a join's, an aggregate's): the
            // write is refused as a value is, by what the server says, not as a failure.
            if error.sqlState == "55000" || error.sqlState == "0A000" {
                return .validation("PostgreSQL cannot write this: \(error.message.singleLine)")
            }
            return .failure("PostgreSQL error \(error.sqlState): \(error.message.singleLine)")
        case let error as PostgresStoreError:
            return error.reason == .unknownTable ? .notFound(error.message) : .validation(error.message)
        default:
            return nil
        }
    }
}
