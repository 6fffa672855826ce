import FormBasics
import FoundationEssentials
import Synchronization

/// Tells a session's owner that someone else committed to the database, so it
/// calls `FormSession.takeExternalChanges()`: the session itself belongs to
/// one task and is never touched from the backend's thread.
///
/// ```swift
/// let watch = try session.watchExternalChanges()
/// for await _ in watch.commits {
///     if let change = try session.takeExternalChanges() { show(change) }
/// }
/// ```
public final class ExternalCommitSignal: Sendable {
    private struct State {
        var pending = false
        var continuations: [Int: AsyncStream<Void>.Continuation] = [:]
        var next = 0
    }

    private let state = Mutex(State())
    private let condition = WaitCondition()

    init() {}

    /// Whether a commit was heard that `takeExternalChanges()` has not taken yet.
    public var hasPending: Bool { state.withLock { $0.pending } }

    /// One element per commit heard (commits heard while the consumer is busy
    /// are merged: the session reads the record once).
    public var commits: AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.next += 1
            state.continuations[state.next] = continuation
            if state.pending { continuation.yield() }
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Blocks until a commit is pending or `timeout` passes; whether one is pending.
    /// For loops that block anyway (the prompts, between lines).
    public func wait(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        condition.lock()
        defer { condition.unlock() }
        while !hasPending {
            if !condition.wait(until: deadline) { return hasPending }
        }
        return true
    }

    func heard() {
        let waiting = state.withLock { state in
            state.pending = true
            return Array(state.continuations.values)
        }
        condition.lock()
        condition.broadcast()
        condition.unlock()
        for continuation in waiting { continuation.yield() }
    }

    /// Clears the pending flag; whether it was set.
    func take() -> Bool {
        state.withLock { state in
            defer { state.pending = false }
            return state.pending
        }
    }

    func finish() {
        let waiting = state.withLock { state in
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in waiting { continuation.finish() }
    }
}

/// A session's watch for commits by others: the observation, its signal, and
/// the dirty fields changed underneath that are not resolved yet.
final class ExternalWatch {
    let signal = ExternalCommitSignal()
    var observation: CommitObservation?
    var conflicts: [FieldConflict] = []
    /// The same for rows and cells of groups (`FormSession+ExternalRows.swift`).
    var rowConflicts: [ExternalRowConflict] = []
    /// The version last read, which the session takes once no conflict is left.
    var resolvedVersion: Int64?

    deinit {
        observation?.cancel()
        signal.finish()
    }
}

/// What `takeExternalChanges()` found.
public struct ExternalChange: Sendable, Hashable {
    /// Untouched fields that took the new stored values.
    public var changed: [String]
    /// Dirty fields that someone else changed too: base, mine, theirs.
    public var conflicts: [FieldConflict]
    /// The record was deleted by someone else.
    public var deleted: Bool
    /// Rows of groups that took a change: cells left alone here, rows added
    /// or deleted there.
    public var rows: [ExternalRowChange] = []
    /// Rows and cells edited here that someone else changed too
    /// (`lines[7].amount`; `lines[7]` for a row deleted on one side).
    public var rowConflicts: [FieldConflict] = []
}
