extension Connection {
    /// Runs `body` in a transaction: committed when it returns, rolled back when
    /// it throws. Inside another transaction it becomes a savepoint, so it can be
    /// rolled back alone.
    ///
    /// ```swift
    /// try conn.transaction {
    ///     try conn.execute("INSERT INTO account(id, balance) VALUES (?, ?)", [1, 100])
    ///     try conn.transaction {            // a savepoint
    ///         try conn.execute("UPDATE account SET balance = 0")
    ///         throw Cancelled()              // undoes only the UPDATE
    ///     }
    /// }
    /// ```
    ///
    /// The connection is never left inside a transaction that this call began,
    /// whatever happens.
    ///
    /// - parameter kind: how an outermost transaction begins (`IMMEDIATE` by default).
    /// - throws: what `body` throws, or a `DatabaseError` from `BEGIN`/`COMMIT`.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if isInsideTransaction {
            return try savepoint(body)
        }
        dropPendingSavedRow()
        try execute(kind.beginSQL)
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        do {
            try execute("COMMIT TRANSACTION")
            keepSavedRow()
        } catch {
            // A failed COMMIT (deferred foreign keys, BUSY) can leave the transaction open.
            rollbackIfNeeded()
            throw error
        }
        return result
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        let sql = SavepointSQL.at(transactionDepth)
        try execute(sql.begin)
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let result: T
        do {
            result = try body()
        } catch {
            if isInsideTransaction {
                do {
                    // ROLLBACK TO keeps the savepoint open: RELEASE it as well.
                    try execute(sql.rollback)
                    forgetDescribedTables()
                    savedRow = nil
                    try execute(sql.release)
                } catch {
                    // The savepoint is gone (the body ended the transaction itself): undo everything.
                    rollbackIfNeeded()
                }
            }
            throw error
        }
        try execute(sql.release)
        return result
    }

    /// Rolls back whatever transaction is open, if any; errors are ignored
    /// because the caller is already reporting one.
    func rollbackIfNeeded() {
        savedRow = nil
        guard isInsideTransaction else { return }
        forgetDescribedTables()
        try? execute("ROLLBACK TRANSACTION")
        if isInsideTransaction {
            // ROLLBACK can fail while a statement is still running: finalize them and retry.
            clearStatementCache()
            try? executeScript("ROLLBACK TRANSACTION")
        }
    }
}

/// The statements of the savepoint at one depth of nesting, written once:
/// every write of a batch runs in one (`BatchedJob`), and building and
/// quoting their text per write cost more than SQLite's running them
/// (issue 14: about 6k of a batched write's 12k for its savepoint).
private struct SavepointSQL: Sendable {
    let begin: String
    let rollback: String
    let release: String

    init(depth: Int) {
        let name = quoteIdentifier("formstore_savepoint_\(depth)")
        begin = "SAVEPOINT \(name)"
        rollback = "ROLLBACK TO SAVEPOINT \(name)"
        release = "RELEASE SAVEPOINT \(name)"
    }

    /// The first few depths, made once; a deeper one is made when asked for.
    private static let shallow = (0..<4).map(SavepointSQL.init(depth:))

    static func at(_ depth: Int) -> SavepointSQL {
        depth < shallow.count ? shallow[depth] : SavepointSQL(depth: depth)
    }
}
