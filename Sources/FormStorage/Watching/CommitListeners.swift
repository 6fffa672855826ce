public import FormCore
import FoundationEssentials
import Synchronization

/// The store's listeners for commits by others, and the one watch they share:
/// a `DatabaseFileWatcher` on the database file while anyone listens, and the
/// `PRAGMA data_version` last seen on the writer connection.
final class CommitListeners: Sendable {
    struct State {
        var listeners: [Int: @Sendable () -> Void] = [:]
        var next = 0
        var watcher: DatabaseFileWatcher?
        var dataVersion: Int64?
    }

    let state = Mutex(State())

    /// Whether the watch runs (it does while anyone listens).
    var isWatching: Bool { state.withLock { $0.watcher?.isRunning ?? false } }
}

/// Hearing other writers: `CommitObserving` for SQLite. A wake-up of the
/// file (inotify on the database and its `-wal` and `-journal`) costs one
/// `PRAGMA data_version` on the writer, which moves only when another
/// connection committed; only then are the listeners called, and each reads
/// what it needs. No record is read on a timer.
extension FormStore: CommitObserving {
    public func observeCommits(_ onCommit: @escaping @Sendable () -> Void) throws -> CommitObservation {
        guard let path = Self.watchablePath(database.path) else {
            throw FormStoreError.badKey("an in-memory database has no other writers to hear")
        }
        let id = try commitListeners.state.withLock { state -> Int in
            if state.watcher == nil {
                state.dataVersion = mainDataVersion()
                state.watcher = try DatabaseFileWatcher(path: path) { [weak self] in self?.heardWrite() }
            }
            state.next += 1
            state.listeners[state.next] = onCommit
            return state.next
        }
        return CommitObservation { [weak self] in self?.stopListening(id) }
    }

    /// Whether the watch for other writers runs.
    public var isWatchingCommits: Bool { commitListeners.isWatching }

    private func stopListening(_ id: Int) {
        commitListeners.state.withLock { state in
            guard state.listeners.removeValue(forKey: id) != nil, state.listeners.isEmpty else { return }
            state.watcher?.stop()
            state.watcher = nil
        }
    }

    private func heardWrite() {
        let version = mainDataVersion()
        let listeners: [@Sendable () -> Void] = commitListeners.state.withLock { state in
            guard state.watcher != nil, let version, version != state.dataVersion else { return [] }
            state.dataVersion = version
            return Array(state.listeners.values)
        }
        for listener in listeners { listener() }
    }

    /// `PRAGMA data_version` of the database on the writer connection.
    private func mainDataVersion() -> Int64? {
        try? database.writeWithoutTransaction { conn in try conn.fetchValue(Int64.self, "PRAGMA main.data_version") }
    }

    /// The file behind a path or `file:` URI; `nil` for a memory database.
    static func watchablePath(_ path: String) -> String? {
        var path = path
        if path.hasPrefix("file:") {
            guard let url = URL(string: path), !url.path.isEmpty else { return nil }
            path = url.path
        }
        if path.isEmpty || path == ":memory:" || path.contains("mode=memory") { return nil }
        return path
    }
}
