import FormBasics
public import FormCore
import FoundationEssentials
import Synchronization

/// Settings kept in the `formstore_settings` table (Migrations/0001_settings.sql),
/// in the database or, for a database FormStore leaves alone, in its sidecar:
/// typed values by key, like `UserDefaults`, surviving the process. Each value
/// is stored as lossless JSON, so a date comes back a date and 1 stays an integer.
///
/// ```swift
/// let settings = SQLiteSettingsStore(store: formStore)
/// try settings.set(.text("dark"), forKey: "theme")
/// let form = try FormBinding(form: preferences, model: SettingsModel(store: settings))
/// ```
///
/// Observers hear of changes made through this instance at once, and of
/// writes made through another connection or process as soon as they commit
/// (`SQLiteSettingsStore+Watching.swift`): `for await keys in settings.changes`.
public final class SQLiteSettingsStore: SettingsStore {
    public let store: FormStore
    let observers = SettingsObservers()
    /// The watch for other writers, while anyone observes.
    let watching = Mutex(Watching())

    public init(store: FormStore) {
        self.store = store
    }

    /// The value for `key`; `nil` when there is none or it cannot be read.
    public func value(forKey key: String) -> FieldValue? {
        _ = try? store.attachSidecar(creating: false)
        let schema = store.ownSchema
        let text = try? store.database.read { conn in
            try conn.cachedStatement("SELECT value FROM \(schema).formstore_settings WHERE key = ?")
                .fetchOne([key]).map { try $0.value(at: 0, as: String.self) }
        }
        return text.flatMap { $0 }.flatMap { try? JSONDecoder().decode(FieldValue.self, from: Data($0.utf8)) }
    }

    public func set(_ value: FieldValue, forKey key: String) throws {
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        try store.prepareOwnTables()
        let schema = store.ownSchema
        try store.writeOwnTables { conn in
            try conn.cachedStatement("""
                INSERT INTO \(schema).formstore_settings (key, value, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """).execute([key, json, ISO8601.dateTime(Date())])
        }
        noteOwnWrite(key, json: json)
        observers.notify([key])
    }

    public func removeValue(forKey key: String) {
        let schema = store.ownSchema
        let removed = (try? store.writeOwnTables { conn in
            try conn.cachedStatement("DELETE FROM \(schema).formstore_settings WHERE key = ?").execute([key])
            return conn.changesCount > 0
        }) ?? false
        if removed {
            noteOwnWrite(key, json: nil)
            observers.notify([key])
        }
    }

    public var keys: [String] {
        _ = try? store.attachSidecar(creating: false)
        let schema = store.ownSchema
        return (try? store.database.read { conn in
            try conn.cachedStatement("SELECT key FROM \(schema).formstore_settings ORDER BY key")
                .fetchAll().map { try $0.value(at: 0, as: String.self) }
        }) ?? []
    }

    /// Adds an observer; the first one starts the watch for other writers,
    /// and cancelling the last one stops it.
    public func addObserver(_ handler: @escaping @Sendable (Set<String>) -> Void) -> SettingsObservation {
        let observation = observers.add(handler)
        let id = startWatching()
        return SettingsObservation { [weak self] in
            observation.cancel()
            self?.stopWatching(id)
        }
    }

    deinit {
        watching.withLock { $0.watcher?.stop() }
    }
}
