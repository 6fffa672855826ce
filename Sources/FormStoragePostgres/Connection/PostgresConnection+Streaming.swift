import CLibPQ

/// Rows handed over one at a time as the server sends them (libpq's
/// single-row mode), so `list` and `export` of a large table keep memory flat
/// as SQLite's stepping statement does, instead of holding the whole result.
extension PostgresConnection {
    /// Runs one statement with its parameters bound and calls `body` with
    /// each row as it arrives (a result of one row: `text(row: 0, column:)`).
    /// When `body` throws, the statement is cancelled on the server and the
    /// connection drained, so it is usable again, and the error is rethrown.
    ///
    /// - throws: what `body` throws, or `PostgresError` with the server's SQLSTATE.
    public func stream(_ sql: String, _ parameters: [String?] = [], _ body: (PostgresResult) throws -> Void) throws {
        try sendPendingStatements()
        let sent = try withCStrings(parameters) { values -> Int32 in
            if preparesStatements {
                let name = try statementName(sql, parameterCount: parameters.count)
                return PQsendQueryPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
            }
            return PQsendQueryParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        guard sent == 1 else { throw PostgresError.connectionLost(Self.message(handle), sql: sql) }
        PQsetSingleRowMode(handle)
        var failure: (any Error)?
        // Every result up to the last (nil) is read, also after a failure: libpq needs it to take the next statement.
        while let raw = PQgetResult(handle) {
            let status = PQresultStatus(raw)
            guard status == PGRES_SINGLE_TUPLE || status == PGRES_TUPLES_OK else {
                do { _ = try check(raw, sql: sql) } catch { failure = failure ?? error }
                continue
            }
            let row = PostgresResult(raw)
            guard failure == nil, status == PGRES_SINGLE_TUPLE else { continue }
            do {
                try body(row)
            } catch {
                failure = error
                cancel()
            }
        }
        if let failure { throw failure }
    }

    /// Asks the server to stop the running statement; its rows still in flight are drained by the caller.
    private func cancel() {
        guard let cancel = PQgetCancel(handle) else { return }
        defer { PQfreeCancel(cancel) }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = PQcancel(cancel, &buffer, Int32(buffer.count))
    }
}
