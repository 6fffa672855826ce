import CLibPQ

/// Statements waiting to go with the next one (`pendingStatements`) sent
/// with it in one round trip (libpq's pipeline mode), rather than a round
/// trip each: a write transaction's `BEGIN` (`PostgresPool.write` leaves it
/// pending, and a transaction that runs no statement is never begun), an
/// import row's `SAVEPOINT`, and the row before's `RELEASE` (`PostgresRecordBatch`):
/// a save is as many round trips as the statements it needs, and an imported
/// row one fewer than its statements.
extension PostgresConnection {
    /// Sends the pending statements and `sql` together and waits once; a
    /// pending statement's failure is thrown first.
    ///
    /// - throws: `PostgresError` with the server's SQLSTATE.
    func executeAfterPending(_ sql: String, _ parameters: [String?]) throws -> PostgresResult {
        // Preparing is a round trip of its own, outside the pipeline, once per connection and statement.
        try refusingNUL(parameters)
        let name = preparesStatements ? try statementName(sql, parameterCount: parameters.count) : nil
        let pending = pendingStatements
        pendingStatements = []
        for statement in pending { trace?(statement) }
        trace?(sql)
        guard PQenterPipelineMode(handle) == 1 else { throw PostgresError.connectionLost(Self.message(handle), sql: sql) }
        let sent = try withCStrings(parameters) { values -> Bool in
            for statement in pending where PQsendQueryParams(handle, statement, 0, nil, nil, nil, nil, 0) != 1 { return false }
            let statement = name.map { PQsendQueryPrepared(handle, $0, Int32(parameters.count), values, nil, nil, 0) }
                ?? PQsendQueryParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
            return statement == 1 && PQpipelineSync(handle) == 1
        }
        // Every result up to the sync point is read, also after a failure: libpq needs it to leave the pipeline.
        var results: [OpaquePointer] = []
        var emptyInARow = 0
        while emptyInARow < 2 {
            guard let raw = PQgetResult(handle) else {
                emptyInARow += 1
                continue
            }
            emptyInARow = 0
            if PQresultStatus(raw) == PGRES_PIPELINE_SYNC {
                PQclear(raw)
                break
            }
            results.append(raw)
        }
        PQexitPipelineMode(handle)
        let owned = results.map(PostgresResult.init)
        guard sent, owned.count == pending.count + 1 else { throw PostgresError.connectionLost(Self.message(handle), sql: sql) }
        for (index, statement) in pending.enumerated() { _ = try check(results[index], owned: owned[index], sql: statement) }
        return try check(results[pending.count], owned: owned[pending.count], sql: sql)
    }
}
