import Dispatch
import Synchronization

/// One async call's work on the database's threads: where it is (queued,
/// running, finished), the one way its waiting task is resumed if it is
/// cancelled in the queue, and the flag its cancellation sets.
///
/// A job cancelled while it waits in the queue resumes its task at once with
/// `CancellationError` and never runs; a job cancelled while it runs stops at
/// the next look of the busy or progress handler, and its transaction rolls back.
///
/// The job is not generic: only `run` is, and it is specialized where it is
/// called, with the typed continuation in its closures. A generic job's own
/// methods and deinit ran unspecialized and looked up the generic metadata of
/// its state on every step (several thousand instructions of each service
/// request, issue 14). The continuation is an `UnsafeContinuation`: the state
/// below lets exactly one side resume it, under the lock.
final class DatabaseJob: Sendable {
    private enum State {
        case starting
        /// Queued; `resumeCancelled` ends the task with `CancellationError`.
        case queued(resumeCancelled: @Sendable () -> Void)
        case running
        case finished
    }

    private let state = Mutex<State>(.starting)
    let interruption = Interruption()

    /// Runs `body` on `queue` and waits for it without blocking the caller's thread.
    static func run<T: Sendable>(on queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let job = DatabaseJob()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<T, any Error>) in
                guard job.enqueue({ continuation.resume(throwing: CancellationError()) }) else { return }
                queue.async {
                    guard job.begin() else { return }
                    let result = Result { try job.interruption.whileCurrent(body) }
                    job.finish()
                    // What a cancelled job threw (a busy wait given up, an
                    // interrupted statement) is the cancellation: nothing was written.
                    if case .failure = result, job.interruption.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(with: result)
                    }
                }
            }
        } onCancel: {
            job.cancel()
        }
    }

    /// Queues the job; false (its task already resumed through
    /// `resumeCancelled`) when it was cancelled before.
    func enqueue(_ resumeCancelled: @escaping @Sendable () -> Void) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if interruption.isCancelled {
                state = .finished
                return true
            }
            state = .queued(resumeCancelled: resumeCancelled)
            return false
        }
        if cancelled { resumeCancelled() }
        return !cancelled
    }

    /// Takes the job off the queue to run it: true when the caller now owns
    /// the task's resumption, false when a cancellation already resumed it.
    func begin() -> Bool {
        state.withLock { state in
            guard case .queued = state else { return false }
            state = .running
            return true
        }
    }

    func finish() {
        state.withLock { $0 = .finished }
    }

    func cancel() {
        interruption.cancel()
        let waiting = state.withLock { state -> (@Sendable () -> Void)? in
            guard case .queued(let resumeCancelled) = state else { return nil }
            state = .finished
            return resumeCancelled
        }
        waiting?()
    }
}
