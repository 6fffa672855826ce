import FormBasics
import FoundationEssentials

/// The open `changes` streams of one source: each gets every set of changed
/// keys until its consumer stops.
final class ChangeStreams: @unchecked Sendable {
    // Guards `continuations` and `next`.
    private let lock = Lock()
    private var continuations: [Int: AsyncStream<Set<String>>.Continuation] = [:]
    private var next = 0

    /// A new stream, open until its consumer ends or is cancelled.
    func makeStream() -> AsyncStream<Set<String>> {
        let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self)
        let id: Int = lock.withLock {
            next += 1
            continuations[next] = continuation
            return next
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func yield(_ keys: Set<String>) {
        let current = lock.withLock { Array(continuations.values) }
        for continuation in current { continuation.yield(keys) }
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }
}
