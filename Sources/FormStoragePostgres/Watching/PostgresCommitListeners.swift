import Synchronization

/// The store's listeners for commits by others, the one listening connection
/// they share while anyone listens, and the tables the store has mapped
/// (each gets FormStore's notify trigger once someone listens).
final class PostgresCommitListeners: Sendable {
    struct State {
        var listeners: [Int: @Sendable () -> Void] = [:]
        var next = 0
        var listener: PostgresNotificationListener?
        /// Tables mapped by the store, by name.
        var tables: [String: PostgresTable] = [:]
        /// Tables whose trigger is known to be installed.
        var triggered: Set<String> = []
        /// Tables this role may not give the trigger (no CREATE on the schema,
        /// not the table's owner), with the server's reason: not watched.
        var unwatched: [String: String] = [:]
    }

    let state = Mutex(State())

    /// Whether the listening connection runs (it does while anyone listens).
    var isWatching: Bool { state.withLock { $0.listener?.isRunning ?? false } }
}
