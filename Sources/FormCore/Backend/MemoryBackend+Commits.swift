import Synchronization

/// Another writer's commits, heard in memory: `put` and `putRows` write as
/// another writer would, so an open session watching this backend hears
/// them (`FormSession.watchExternalChanges()`) the way a session over SQLite
/// hears another process. A session's own saves are not heard.
extension MemoryBackend: CommitObserving {
    public func observeCommits(_ onCommit: @escaping @Sendable () -> Void) throws -> CommitObservation {
        let id = commitListeners.withLock { listeners in
            listeners.next += 1
            listeners.calls[listeners.next] = onCommit
            return listeners.next
        }
        return CommitObservation { [weak self] in
            _ = self?.commitListeners.withLock { $0.calls.removeValue(forKey: id) }
        }
    }

    /// Tells every observer that someone else committed.
    func heardCommit() {
        for call in commitListeners.withLock({ Array($0.calls.values) }) { call() }
    }
}

/// Who hears a memory backend's commits by others.
struct CommitListeners {
    var calls: [Int: @Sendable () -> Void] = [:]
    var next = 0
}
