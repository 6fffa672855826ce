/// The async API: the same calls, run on the database's own threads
/// (`DatabaseThreads`) while the calling task waits without holding a thread.
///
/// ```swift
/// let db = try Database(path: "app.sqlite")
/// try await db.write { try $0.execute("INSERT INTO note(body) VALUES (?)", ["hello"]) }
/// let count = try await db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM note") }
/// ```
///
/// Cancelling the task stops a wait: a write still waiting for the writer, or
/// for another process's lock (the busy timeout), ends at once with
/// `CancellationError` and writes nothing; a running statement is interrupted
/// and its transaction rolled back.
extension Database {
    /// Which of the database's threads a job needs.
    public enum Access: Sendable {
        /// A reader thread: reads run side by side.
        case reading
        /// The writer thread: writes run one at a time.
        case writing
    }

    /// Runs blocking database work (calls of the blocking API of this database
    /// or of a store over it) on the database's threads and awaits its result.
    ///
    /// ```swift
    /// let record = try await db.perform(.reading) { try store.load(form, key: key) }
    /// ```
    ///
    /// - throws: what `body` throws; `CancellationError` when the task was
    ///   cancelled before `body` finished (its transaction is then rolled back).
    public func perform<T: Sendable>(_ access: Access, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await DatabaseJob.run(on: access == .writing ? threads.writes : threads.reads, body)
    }

    /// A write that may share its transaction with the writes queued beside
    /// it (group commit, `WriteBatcher`): `prepare` runs on the writer's thread
    /// outside any transaction and returns the statements to run inside one
    /// (in a savepoint of their own). The task resumes once the commit holds.
    ///
    /// - throws: what `prepare` or its statements throw; the commit's
    ///   `DatabaseError`; `CancellationError` (nothing of this write is kept).
    func performBatchedWrite<T: Sendable>(
        _ prepare: @escaping @Sendable () throws -> (Connection) throws -> T
    ) async throws -> T {
        try await BatchedJob.run(on: self, prepare)
    }

    /// `write(_:)` on the writer thread: a write transaction (`BEGIN IMMEDIATE`).
    ///
    /// - throws: what `body` throws, a `DatabaseError`, or `CancellationError`.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await perform(.writing) { try self.write(body) }
    }

    /// `read(_:)` on a reader thread: one consistent snapshot.
    ///
    /// - throws: what `body` throws, a `DatabaseError`, or `CancellationError`.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await perform(.reading) { try self.read(body) }
    }
}
