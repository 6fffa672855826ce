import FoundationEssentials
import Synchronization

/// A backend that hears commits made by other connections or processes
/// without reading any record on a timer (SQLite: `PRAGMA data_version` on an
/// inotify wake-up of the database and its WAL). What changed is for the
/// listener to read.
public protocol CommitObserving: FormBackend {
    /// Calls `onCommit`, on a thread of the backend's, after each commit by
    /// someone else, until the returned observation is cancelled.
    ///
    /// - throws: when the backend cannot watch (inotify unavailable, an in-memory database).
    func observeCommits(_ onCommit: @escaping @Sendable () -> Void) throws -> CommitObservation
}

/// Ends a commit observation when cancelled or released.
public final class CommitObservation: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    public init(_ onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
    }

    public func cancel() {
        onCancel.withLock { cancel in
            cancel?()
            cancel = nil
        }
    }

    deinit { cancel() }
}
