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
///
/// Not generic: the batcher reaches a write through `BatchedWrite`, and a
/// generic write's methods ran there unspecialized, looking up the generic
/// metadata of its result and continuation at every step (issue 14). Its
/// steps are closures made by `run`, specialized where it is called, over the
/// write's typed state.
final class BatchedJob: BatchedWrite, @unchecked Sendable {
    typealias Prepare<T> = @Sendable () throws -> (Connection) throws -> T

    private let job: DatabaseJob
    // The steps, made by `run` over the write's typed state. They run on the
    // writer's serial queue only (`prepare`, `write`, `answer`, in that
    // order, in one batch): hence `@unchecked Sendable`.
    private let prepareStep: () -> Bool
    private let writeStep: (Connection) -> Void
    private let failureStep: () -> (any Error)?
    private let answerStep: ((any Error)?) -> Void

    private init(job: DatabaseJob, prepare: @escaping () -> Bool, write: @escaping (Connection) -> Void,
                 failure: @escaping () -> (any Error)?, answer: @escaping ((any Error)?) -> Void) {
        self.job = job
        prepareStep = prepare
        writeStep = write
        failureStep = failure
        answerStep = answer
    }

    var interruption: Interruption { job.interruption }

    /// Queues the write on `database`'s batcher and waits for its committed outcome.
    static func run<T: Sendable>(on database: Database, _ prepareBody: @escaping Prepare<T>) async throws -> T {
        let job = DatabaseJob()
        // The write's typed state: the continuation is set before the write
        // is queued; the rest is set and read on the writer's queue only.
        nonisolated(unsafe) var continuation: UnsafeContinuation<T, any Error>?
        nonisolated(unsafe) var step: ((Connection) throws -> T)?
        nonisolated(unsafe) var outcome: Result<T, any Error>?
        let batched = BatchedJob(job: job, prepare: {
            guard job.begin(), let waiting = continuation else { return false }
            do {
                step = try job.interruption.whileCurrent(prepareBody)
                return true
            } catch {
                continuation = nil
                job.finish()
                waiting.resume(throwing: job.interruption.isCancelled ? CancellationError() : error)
                return false
            }
        }, write: { conn in
            guard let statements = step else { return }
            outcome = Result {
                try conn.transaction {
                    if job.interruption.isCancelled { throw CancellationError() }
                    let value = try statements(conn)
                    // Cancelled while it ran: its savepoint rolls back.
                    if job.interruption.isCancelled { throw CancellationError() }
                    return value
                }
            }
        }, failure: {
            guard case .failure(let error)? = outcome else { return nil }
            return error
        }, answer: { commitFailure in
            guard let waiting = continuation else { return }
            continuation = nil
            step = nil
            job.finish()
            let result: Result<T, any Error>
            switch (outcome, commitFailure) {
            case (.failure(let error)?, _): result = .failure(error)
            case (_, let failure?): result = .failure(failure)
            case (let outcome?, nil): result = outcome
            case (nil, nil): result = .failure(BatchError.transactionLost)
            }
            outcome = nil
            // What a cancelled write threw (a busy wait given up) is the cancellation: nothing was written.
            if case .failure = result, job.interruption.isCancelled {
                waiting.resume(throwing: CancellationError())
            } else {
                waiting.resume(with: result)
            }
        })
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (waiting: UnsafeContinuation<T, any Error>) in
                continuation = waiting
                guard job.enqueue({ waiting.resume(throwing: CancellationError()) }) else { return }
                database.threads.batches.submit(batched, on: database.threads.writes, database: database)
            }
        } onCancel: {
            job.cancel()
        }
    }

    func prepare() -> Bool { prepareStep() }
    func write(_ conn: Connection) { writeStep(conn) }
    var failure: (any Error)? { failureStep() }
    func answer(commitFailure: (any Error)?) { answerStep(commitFailure) }
}
