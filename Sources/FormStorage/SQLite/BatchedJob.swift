/// An async call's write that shares its commit with the writes queued beside
/// it (`WriteBatcher`): its preparation (the table's mapping, the history
/// writer, attaching FormStore's sidecar) runs before the batch's transaction
/// begins, its statements in a savepoint inside it.
///
/// Cancellation keeps `DatabaseJob`'s promise: a write cancelled while it
/// waits (in the queue, or for another process's lock with the rest of its
/// batch) ends at once with `CancellationError`; one cancelled while it runs
/// rolls back its savepoint and ends the same way, writing nothing. Its
/// statements are not interrupted midway, which would roll back the whole
/// batch: a record's write is a few statements.
final class BatchedJob<T: Sendable>: BatchedWrite, @unchecked Sendable {
    typealias Prepare = @Sendable () throws -> (Connection) throws -> T

    private let job = DatabaseJob<T>()
    private let prepareBody: Prepare
    // Set and read only on the writer's serial queue (`prepare`, `write`,
    // `answer`, in that order, in one batch): hence `@unchecked Sendable`.
    private var continuation: UnsafeContinuation<T, any Error>?
    private var step: ((Connection) throws -> T)?
    private var outcome: Result<T, any Error>?

    private init(_ prepare: @escaping Prepare) {
        prepareBody = prepare
    }

    var interruption: Interruption { job.interruption }

    /// Queues the write on `database`'s batcher and waits for its committed outcome.
    static func run(on database: Database, _ prepare: @escaping Prepare) async throws -> T {
        let batched = BatchedJob(prepare)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                guard batched.job.enqueue(continuation) else { return }
                database.threads.batches.submit(batched, on: database.threads.writes, database: database)
            }
        } onCancel: {
            batched.job.cancel()
        }
    }

    func prepare() -> Bool {
        guard let continuation = job.begin() else { return false }
        do {
            step = try job.interruption.whileCurrent(prepareBody)
            self.continuation = continuation
            return true
        } catch {
            job.finish()
            continuation.resume(throwing: job.interruption.isCancelled ? CancellationError() : error)
            return false
        }
    }

    func write(_ conn: Connection) {
        guard let step else { return }
        outcome = Result {
            try conn.transaction {
                if job.interruption.isCancelled { throw CancellationError() }
                let value = try step(conn)
                // Cancelled while it ran: its savepoint rolls back.
                if job.interruption.isCancelled { throw CancellationError() }
                return value
            }
        }
    }

    var failure: (any Error)? {
        guard case .failure(let error)? = outcome else { return nil }
        return error
    }

    func answer(commitFailure: (any Error)?) {
        guard let continuation else { return }
        self.continuation = nil
        step = nil
        job.finish()
        let result: Result<T, any Error>
        switch (outcome, commitFailure) {
        case (.failure(let error)?, _): result = .failure(error)
        case (_, let failure?): result = .failure(failure)
        case (let outcome?, nil): result = outcome
        case (nil, nil): result = .failure(BatchError.transactionLost)
        }
        // What a cancelled write threw (a busy wait given up) is the cancellation: nothing was written.
        if case .failure = result, job.interruption.isCancelled {
            continuation.resume(throwing: CancellationError())
        } else {
            continuation.resume(with: result)
        }
    }
}
