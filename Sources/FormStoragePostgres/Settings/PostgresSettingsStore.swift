import FormBasics
public import FormCore
import FoundationEssentials

/// Settings kept in the `formstore_settings` table (Migrations/0001_settings.sql)
/// of a PostgreSQL database: typed values by key, each stored as the same
/// lossless JSON as `SQLiteSettingsStore` writes, so a date comes back a date
/// and 1 stays an integer.
///
/// ```swift
/// let settings = PostgresSettingsStore(store: postgresStore)
/// try settings.set(.text("dark"), forKey: "theme")
/// ```
///
/// Observers hear of changes made through this instance. Writes by another
/// process are read by the next `value(forKey:)` but not announced
/// (announcing them needs `LISTEN`/`NOTIFY`, which is not built).
public final class PostgresSettingsStore: SettingsStore {
    public let store: PostgresFormStore
    private let observers = SettingsObservers()

    public init(store: PostgresFormStore) {
        self.store = store
    }

    /// The value for `key`; `nil` when there is none or it cannot be read.
    public func value(forKey key: String) -> FieldValue? {
        let text = try? store.pool.read { conn in
            try conn.execute("SELECT value FROM formstore_settings WHERE key = $1", [key]).text(row: 0, column: 0)
        }
        return text.flatMap { $0 }.flatMap { try? JSONDecoder().decode(FieldValue.self, from: Data($0.utf8)) }
    }

    public func set(_ value: FieldValue, forKey key: String) throws {
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        try store.pool.write { conn in
            try conn.execute("""
                INSERT INTO formstore_settings (key, value, updated_at) VALUES ($1, $2, $3)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """, [key, json, ISO8601.dateTime(Date())])
        }
        observers.notify([key])
    }

    public func removeValue(forKey key: String) {
        let removed = (try? store.pool.write { conn in
            try conn.execute("DELETE FROM formstore_settings WHERE key = $1", [key]).changedRows > 0
        }) ?? false
        if removed { observers.notify([key]) }
    }

    public var keys: [String] {
        (try? store.pool.read { conn in
            let result = try conn.execute("SELECT key FROM formstore_settings ORDER BY key")
            return (0..<result.rowCount).compactMap { result.text(row: $0, column: 0) }
        }) ?? []
    }

    public func addObserver(_ handler: @escaping @Sendable (Set<String>) -> Void) -> SettingsObservation {
        observers.add(handler)
    }
}
