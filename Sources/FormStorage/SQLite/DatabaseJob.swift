import Dispatch
import Synchronization

/// One async call's work on the database's threads: the continuation its task
/// waits on, resumed exactly once, and the flag its cancellation sets.
///
/// The continuation is an `UnsafeContinuation`: the state below hands it out
/// once, under the lock, so nothing can resume it twice or drop it. A
/// `CheckedContinuation`, whose layout the concurrency library keeps to
/// itself, made every copy and destroy of the state look up its generic
/// metadata: about 6k instructions of each service request (issue 14).
///
/// A job cancelled while it waits in the queue resumes its task at once with
/// `CancellationError` and never runs; a job cancelled while it runs stops at
/// the next look of the busy or progress handler, and its transaction rolls back.
final class DatabaseJob<T: Sendable>: Sendable {
    private enum State {
        case starting
        case queued(UnsafeContinuation<T, any Error>)
        case running
        case finished
    }

    private let state = Mutex<State>(.starting)
    let interruption = Interruption()

    /// Runs `body` on `queue` and waits for it without blocking the caller's thread.
    static func run(on queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let job = DatabaseJob()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                guard job.enqueue(continuation) else { return }
                queue.async {
                    guard let continuation = job.begin() else { return }
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

    func enqueue(_ continuation: UnsafeContinuation<T, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if interruption.isCancelled {
                state = .finished
                return true
            }
            state = .queued(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    func begin() -> UnsafeContinuation<T, any Error>? {
        state.withLock { state in
            guard case .queued(let continuation) = state else { return nil }
            state = .running
            return continuation
        }
    }

    func finish() {
        state.withLock { $0 = .finished }
    }

    func cancel() {
        interruption.cancel()
        let waiting = state.withLock { state -> UnsafeContinuation<T, any Error>? in
            guard case .queued(let continuation) = state else { return nil }
            state = .finished
            return continuation
        }
        waiting?.resume(throwing: CancellationError())
    }
}
