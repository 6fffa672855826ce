import FormBasics
import FoundationEssentials
import FormCore
import FormStorage

/// Tells the server's event streams that the database may hold a new commit:
/// another writer's (heard by the store's commit listener, inotify plus
/// `PRAGMA data_version`) or the server's own write, which `data_version` on
/// its own connection does not show. A stream sleeps on it and reads its
/// record only after a commit, so an idle stream reads nothing.
final class CommitSignal: @unchecked Sendable {
    private let condition = WaitCondition()
    private var generation = 0
    private var stopped = false
    private var observation: CommitObservation?

    /// The commits seen so far; a waiter passes it back to `wait(after:timeout:)`.
    var current: Int {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    /// Starts hearing other writers through `store` (once; later calls do
    /// nothing). A store that cannot hear them (PostgreSQL until it has
    /// `CommitObserving`) leaves the server's own saves, which call `commit()`.
    func listen(to store: any RecordStore) throws {
        condition.lock()
        defer { condition.unlock() }
        guard observation == nil, !stopped, let observing = store as? any CommitObserving else { return }
        observation = try observing.observeCommits { [weak self] in self?.commit() }
    }

    /// A commit happened (or may have): every waiter wakes.
    func commit() {
        condition.lock()
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until a commit after `seen`, the server stops, or `timeout` passes;
    /// the generation then (equal to `seen` when nothing committed).
    func wait(after seen: Int, timeout: TimeInterval) -> Int {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        condition.lock()
        defer { condition.unlock() }
        while generation == seen && !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return generation
    }

    /// Ends the listening and wakes every waiter for good.
    func stop() {
        condition.lock()
        stopped = true
        let ending = observation
        observation = nil
        condition.broadcast()
        condition.unlock()
        ending?.cancel()
    }
}
