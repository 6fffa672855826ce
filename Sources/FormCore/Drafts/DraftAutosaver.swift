import Dispatch
public import FoundationEssentials
import Synchronization

/// Writes a session's drafts in the background, coalesced: the first change
/// is written at once, later ones at most once per `interval`, so fast typing
/// does not write per keystroke yet at most `interval` of typing can be lost
/// in a crash. `flush()` writes what is pending at once.
///
/// When the draft store fails (a read-only, full or locked database), the draft
/// goes to the fallback store (files under `$XDG_STATE_HOME/formstore`) and
/// `fallback` says where and why.
public final class DraftAutosaver: Sendable {
    public struct Policy: Sendable {
        /// The most typing a crash may lose; also the least time between writes.
        public var interval: Duration
        /// Where drafts go when the store fails; `nil` for none.
        /// `FileDraftStore.standard` unless one was given.
        public var fallback: (any DraftStore)? {
            get {
                switch fallbackChoice {
                case .standard: return FileDraftStore.standard
                case .given(let store): return store
                }
            }
            set { fallbackChoice = .given(newValue) }
        }
        /// Drafts last written longer ago are deleted when a session opens.
        public var lifetime: Duration

        /// The standard fallback is found only when a draft needs it: finding it
        /// reads the environment, which cost more than opening a session did.
        private enum FallbackChoice: Sendable {
            case standard
            case given((any DraftStore)?)
        }
        private var fallbackChoice: FallbackChoice

        /// A policy whose fallback is `FileDraftStore.standard`.
        public init(interval: Duration = .seconds(1), lifetime: Duration = .seconds(30 * 86_400)) {
            self.interval = interval
            self.fallbackChoice = .standard
            self.lifetime = lifetime
        }

        /// A policy with the given fallback (`nil` for none).
        public init(interval: Duration = .seconds(1), fallback: (any DraftStore)?,
                    lifetime: Duration = .seconds(30 * 86_400)) {
            self.interval = interval
            self.fallbackChoice = .given(fallback)
            self.lifetime = lifetime
        }

        /// The oldest `updatedAt` a draft may have and still be kept.
        public var expiryDate: Date { Date().addingTimeInterval(-lifetime.timeInterval) }
    }

    /// Where a draft went instead of the store, and why.
    public struct Fallback: Sendable, CustomStringConvertible {
        public var location: String
        public var reason: String
        /// Why the store failed, for a front end to word (the reason is its raw description).
        public var error: (any Error)?
        public var description: String { "draft kept in \(location) (\(reason))" }
        /// Neither the store nor a fallback took the draft: nothing keeps it.
        public var isNowhere: Bool { location == Self.nowhere }
        static let nowhere = "(nowhere)"
    }

    private struct State {
        /// The unsaved state as last handed over, written or not: what a
        /// one-field edit (`update(field:value:input:)`) changes in place.
        var latest: Draft?
        /// `latest` is not written yet.
        var isPending = false
        var lastWrite: ContinuousClock.Instant?
        var scheduled = false
        var fallback: Fallback?
        var purgedExpired = false

        /// Nothing unsaved to write, and nothing to change in place.
        mutating func forget() {
            latest = nil
            isPending = false
        }
    }

    /// Where the drafts go (a session's `draftStore`).
    let store: any DraftStore
    private let policy: Policy
    private let state = Mutex(State())
    /// Serial: writes, deletes and flushes happen in the order they were asked for.
    private let queue = DispatchQueue(label: "formstore.draft-autosaver")

    public init(store: any DraftStore, policy: Policy = Policy()) {
        self.store = store
        self.policy = policy
    }

    public var fallback: Fallback? { state.withLock { $0.fallback } }

    /// Takes the latest unsaved state; writes it now or when the interval has passed.
    public func schedule(_ draft: Draft) {
        let delay = state.withLock { s -> Duration? in
            s.latest = draft
            s.isPending = true
            return arm(&s)
        }
        if let delay { writeAfter(delay) }
    }

    /// One field of the draft last handed over changed (a keystroke): its
    /// value (`nil`: not changed any more) or its input that did not parse
    /// replaces the old, in place, and is written as `schedule` writes. Costs
    /// one field, not a snapshot of the form. Returns false, changing
    /// nothing, when there is no draft to change or the change would leave it
    /// empty: the caller hands over (or discards) the whole state instead.
    public func update(field key: String, value: FieldValue?, input: String?, at date: Date) -> Bool {
        let delay = state.withLock { s -> Duration?? in
            // Out of the state while it changes, so its storage is not copied.
            guard var draft = s.latest.take() else { return .none }
            let old = (draft.values.removeValue(forKey: key), draft.inputs.removeValue(forKey: key))
            if draft.values.isEmpty && draft.inputs.isEmpty && draft.groups == nil && value.isNone && input == nil {
                if let value = old.0 { draft.values[key] = value }
                if let input = old.1 { draft.inputs[key] = input }
                s.latest = draft
                return .none
            }
            if let input { draft.inputs[key] = input } else if let value { draft.values[key] = value }
            draft.updatedAt = Draft.milliseconds(date)
            s.latest = draft
            s.isPending = true
            return .some(arm(&s))
        }
        guard let delay else { return false }
        if let delay { writeAfter(delay) }
        return true
    }

    /// Marks a write as scheduled; the delay before it, or `nil` when one is already scheduled.
    private func arm(_ s: inout State) -> Duration? {
        if s.scheduled { return nil }
        s.scheduled = true
        guard let last = s.lastWrite else { return .zero }
        let elapsed = last.duration(to: ContinuousClock.now)
        return elapsed >= policy.interval ? .zero : policy.interval - elapsed
    }

    private func writeAfter(_ delay: Duration) {
        if delay == .zero {
            queue.async { self.writePending() }
        } else {
            queue.asyncAfter(deadline: .now() + delay.timeInterval) { self.writePending() }
        }
    }

    /// Writes the pending draft, if any, before returning.
    public func flush() {
        queue.sync { writePending() }
    }

    /// Forgets the pending draft and waits for a write under way, so that a save
    /// deleting the draft in its transaction is not followed by a stale write.
    public func cancelPending() {
        state.withLock { $0.forget() }
        queue.sync {}
    }

    /// `flush()` for async code: the write runs on the autosaver's queue while
    /// the task waits without blocking its thread (a locked database may hold
    /// the write up to its busy timeout).
    public func flush() async {
        await withCheckedContinuation { continuation in
            queue.async {
                self.writePending()
                continuation.resume()
            }
        }
    }

    /// `cancelPending()` for async code: the wait for a write under way
    /// suspends the task instead of blocking its thread.
    public func cancelPending() async {
        state.withLock { $0.forget() }
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    /// Nothing is unsaved any more: deletes the draft (after earlier writes).
    public func discard(id: String) {
        state.withLock { $0.forget() }
        queue.async { [store, policy] in
            try? store.deleteDraft(id: id)
            try? policy.fallback?.deleteDraft(id: id)
        }
    }

    private func writePending() {
        guard let draft = state.withLock({ s -> Draft? in
            s.scheduled = false
            guard s.isPending else { return nil }
            // The interval counts from the start of this write: a change made while
            // the store is busy writing must wait, not start a second write at once.
            s.lastWrite = ContinuousClock.now
            s.isPending = false
            return s.latest
        }) else { return }
        var fallback: Fallback?
        do {
            // The first write of a session also clears drafts past their lifetime.
            if !state.withLock({ $0.purgedExpired }) {
                try store.deleteDrafts(updatedBefore: policy.expiryDate)
                state.withLock { $0.purgedExpired = true }
            }
            try store.writeDraft(draft)
        } catch {
            fallback = Fallback(location: Fallback.nowhere, reason: "\(error)", error: error)
            if let other = policy.fallback {
                do {
                    // Stamped with the database it belongs to: the fallback holds every database's drafts.
                    var kept = draft
                    kept.database = store.draftScope
                    try other.writeDraft(kept)
                    fallback?.location = (other as? FileDraftStore)?.path(for: draft.id).path ?? "the fallback store"
                } catch {
                    fallback?.reason += "; fallback failed: \(error)"
                }
            }
        }
        state.withLock { s in s.fallback = fallback }
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

private extension Optional where Wrapped == FieldValue {
    /// No value at all (`== nil` would compare with the `.null` value: FieldValue takes nil literals).
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}
