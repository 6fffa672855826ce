import FormCore
import FormStorage
import FormStoragePostgres
import Foundation

/// What the history and live-record tests need of a backend: its history,
/// another application's connection, and the statements the store runs.
extension TestBackend {
    /// The store as a `HistoryBackend`, with FormStore's tables in the
    /// database (SQLite after `formstore init`; PostgreSQL always).
    func historyStore() throws -> any HistoryBackend {
        if let store = store as? FormStore { try store.initialize() }
        return store as! any HistoryBackend
    }

    func setHistoryRetention(_ retention: HistoryRetention) {
        (store as? FormStore)?.historyRetention = retention
        (store as? PostgresFormStore)?.historyRetention = retention
    }

    /// Another application's connection to the same database (not the
    /// store's): runs each script it is given as its own transaction.
    func otherConnection() throws -> @Sendable (String) throws -> Void {
        switch kind {
        case .sqlite:
            let database = try Database(path: location)
            return { sql in try database.write { try $0.executeScript(sql) } }
        case .postgres:
            let pool = try PostgresPool(url: location, maxConnections: 1)
            return { sql in try pool.write { try $0.executeScript(sql) } }
        }
    }

    /// Calls `handler` with the SQL of each statement the store runs from now on.
    func traceStatements(_ handler: @escaping @Sendable (String) -> Void) {
        sqlite?.traceStatements(handler)
        postgres?.traceStatements(handler)
    }

    /// Whether the store's watch for other writers runs.
    var isWatchingCommits: Bool {
        (store as? FormStore)?.isWatchingCommits ?? (store as? PostgresFormStore)?.isWatchingCommits ?? false
    }
}
