import FormCore
import Foundation

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
/// Observers hear of changes made through this instance.
public final class SQLiteSettingsStore: SettingsStore {
    public let store: FormStore
    private let observers = SettingsObservers()

    public init(store: FormStore) {
        self.store = store
    }

    /// The value for `key`; `nil` when there is none or it cannot be read.
    public func value(forKey key: String) -> FieldValue? {
        _ = try? store.attachSidecar(creating: false)
        let text = try? store.database.read { conn in
            try conn.cachedStatement("SELECT value FROM formstore_settings WHERE key = ?")
                .fetchOne([key]).map { try $0.value(at: 0, as: String.self) }
        }
        return text.flatMap { $0 }.flatMap { try? JSONDecoder().decode(FieldValue.self, from: Data($0.utf8)) }
    }

    public func set(_ value: FieldValue, forKey key: String) throws {
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        try store.prepareOwnTables()
        try store.database.write { conn in
            try conn.cachedStatement("""
                INSERT INTO formstore_settings (key, value, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """).execute([key, json, ISO8601.dateTime(Date())])
        }
        observers.notify([key])
    }

    public func removeValue(forKey key: String) {
        let removed = (try? store.database.write { conn in
            try conn.cachedStatement("DELETE FROM formstore_settings WHERE key = ?").execute([key])
            return conn.changesCount > 0
        }) ?? false
        if removed { observers.notify([key]) }
    }

    public var keys: [String] {
        _ = try? store.attachSidecar(creating: false)
        return (try? store.database.read { conn in
            try conn.cachedStatement("SELECT key FROM formstore_settings ORDER BY key")
                .fetchAll().map { try $0.value(at: 0, as: String.self) }
        }) ?? []
    }

    public func addObserver(_ handler: @escaping @Sendable (Set<String>) -> Void) -> SettingsObservation {
        observers.add(handler)
    }
}
