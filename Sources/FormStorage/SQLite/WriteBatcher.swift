import Dispatch
import Synchronization

/// Group commit for the async API's record writes: the writes that queue up
/// while the writer is busy run next in one transaction (`BEGIN IMMEDIATE`
/// … `COMMIT`), each in a savepoint of its own, so eight request tasks saving
/// at once pay for one commit (one WAL append, one fsync at `FULL`) instead of
/// eight. A write that fails or is cancelled rolls back its savepoint only;
/// the others commit. A write's task resumes only once the commit has
/// succeeded, so a result a task sees is durable as the store's
/// `synchronous` setting makes any commit.
///
/// Order is kept: a batch runs on the writer's serial queue, its writes in
/// the order they were asked for, and a write that cannot share a transaction
/// (`Database.perform(.writing)`) keeps its place on the same queue.
final class WriteBatcher: Sendable {
    /// At most this many writes share a commit, so the first of a long queue
    /// waits for a bounded number of others.
    static let largestBatch = 32

    private let pending = Mutex<[any BatchedWrite]>([])

    /// Queues `write`; the first write of an empty queue schedules the batch
    /// on `queue`, and the writes that arrive before it runs join it.
    func submit(_ write: any BatchedWrite, on queue: DispatchQueue, database: Database) {
        let first = pending.withLock { writes -> Bool in
            writes.append(write)
            return writes.count == 1
        }
        if first { queue.async { self.drain(database) } }
    }

    private func drain(_ database: Database) {
        let writes = pending.withLock { writes -> [any BatchedWrite] in
            defer { writes.removeAll() }
            return writes
        }
        for start in stride(from: 0, to: writes.count, by: Self.largestBatch) {
            run(writes[start..<min(writes.count, start + Self.largestBatch)], database)
        }
    }

    /// Prepares each write outside the transaction (a write cancelled while it
    /// queued was answered already and is skipped), then runs them all in one.
    private func run(_ writes: ArraySlice<any BatchedWrite>, _ database: Database) {
        let started = writes.filter { $0.prepare() }
        guard !started.isEmpty else { return }
        // The wait for another process's lock ends once every write of the batch is cancelled.
        let everyone = Interruption(allOf: started.map(\.interruption))
        var failure: (any Error)?
        do {
            try everyone.whileCurrent {
                try database.write { conn in
                    for write in started {
                        write.write(conn)
                        // A failure SQLite answers by rolling back the whole
                        // transaction (an I/O error, a full disk) takes the batch with it.
                        guard conn.isInsideTransaction else { throw write.failure ?? BatchError.transactionLost }
                    }
                }
            }
        } catch {
            failure = error
        }
        for write in started { write.answer(commitFailure: failure) }
    }
}

/// A batch's transaction ended before its commit.
struct BatchError: Error, CustomStringConvertible {
    static let transactionLost = BatchError()
    var description: String { "the write's transaction was rolled back by a failure of the batch it was committed with" }
}

/// One write waiting in a `WriteBatcher`, its result type erased.
protocol BatchedWrite: AnyObject, Sendable {
    var interruption: Interruption { get }
    /// Takes the write off the queue and runs its preparation, outside any
    /// transaction; false when the write needs no transaction (it was
    /// cancelled while it waited, or its preparation failed: its task has its answer).
    func prepare() -> Bool
    /// Runs the write in a savepoint of the batch's transaction and keeps its outcome.
    func write(_ conn: Connection)
    /// What `write` threw, if anything.
    var failure: (any Error)? { get }
    /// Resumes the write's task: with its outcome once the batch committed,
    /// else with `commitFailure`.
    func answer(commitFailure: (any Error)?)
}
