import CLibPQ

/// A write transaction's `BEGIN` sent with its first statement in one round
/// trip (libpq's pipeline mode), rather than a round trip of its own: a save
/// is then as many round trips as the statements it needs. `PostgresPool.write`
/// marks the transaction begun (`beginsWithNextStatement`); the first
/// statement carries the `BEGIN`.
extension PostgresConnection {
    /// Sends `BEGIN` and `sql` together and waits once; `BEGIN`'s failure is thrown first.
    ///
    /// - throws: `PostgresError` with the server's SQLSTATE.
    func executeBeginning(_ sql: String, _ parameters: [String?]) throws -> PostgresResult {
        // Preparing is a round trip of its own, outside the pipeline, once per connection and statement.
        try refusingNUL(parameters)
        let name = preparesStatements ? try statementName(sql, parameterCount: parameters.count) : nil
        trace?("BEGIN")
        trace?(sql)
        guard PQenterPipelineMode(handle) == 1 else { throw PostgresError.connectionLost(Self.message(handle), sql: sql) }
        let sent = try withCStrings(parameters) { values -> Bool in
            guard PQsendQueryParams(handle, "BEGIN", 0, nil, nil, nil, nil, 0) == 1 else { return false }
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
        guard sent, owned.count == 2 else { throw PostgresError.connectionLost(Self.message(handle), sql: sql) }
        _ = try check(results[0], owned: owned[0], sql: "BEGIN")
        return try check(results[1], owned: owned[1], sql: sql)
    }
}
