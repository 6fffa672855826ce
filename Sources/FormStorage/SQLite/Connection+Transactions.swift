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
        let name = quoteIdentifier("formstore_savepoint_\(transactionDepth)")
        try execute("SAVEPOINT \(name)")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let result: T
        do {
            result = try body()
        } catch {
            if isInsideTransaction {
                do {
                    // ROLLBACK TO keeps the savepoint open: RELEASE it as well.
                    try execute("ROLLBACK TO SAVEPOINT \(name)")
                    forgetDescribedTables()
                    savedRow = nil
                    try execute("RELEASE SAVEPOINT \(name)")
                } catch {
                    // The savepoint is gone (the body ended the transaction itself): undo everything.
                    rollbackIfNeeded()
                }
            }
            throw error
        }
        try execute("RELEASE SAVEPOINT \(name)")
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
