import FormCore
import Foundation

/// Writes one save's history inside the save's transaction, into the tables
/// of Migrations/postgres/0005_history.sql: a `formstore_changes` row and a
/// `formstore_change_fields` row per changed field, each value as the column's
/// own text (what the server returned for it, so it reads back through the
/// field's coding as the record did), then prunes the record's history as
/// `HistoryRetention` asks.
struct PostgresHistoryWriter {
    let mapping: PostgresTableMapping
    let attribution: ChangeAttribution
    let retention: HistoryRetention
    /// Remembers that `formstore_changes` was seen.
    let store: PostgresFormStore

    /// Records the fields whose stored text differs between `before` (nil
    /// for a new record) and `after`. Does nothing when FormStore's tables
    /// are missing (a store opened without its migrations).
    func record(before: [String: String?]?, after: [String: String?], key: RecordKey, _ conn: PostgresConnection) throws {
        var changed: [(field: Field, old: String?, new: String?)] = []
        for field in mapping.form.fields where field.isStored && field.holdsValue {
            let old = before?[field.key] ?? nil
            let new = after[field.key] ?? nil
            if old != new { changed.append((field, old, new)) }
        }
        guard !changed.isEmpty, try historyTableExists(conn) else { return }
        let keyText = try PostgresFormStore.keyText(key)
        let now = Date()
        let inserted = try conn.execute("""
            INSERT INTO formstore_changes (form, record_key, changed_at, actor, via) VALUES ($1, $2, $3, $4, $5) RETURNING id
            """, [mapping.form.name, keyText, ISO8601.dateTime(now), attribution.actor, attribution.via.rawValue])
        guard let id = inserted.text(row: 0, column: 0) else {
            throw PostgresError.unexpected("no id for the change", sql: "INSERT INTO formstore_changes")
        }
        for (field, old, new) in changed {
            // A secure field's values never reach the history: only that it changed.
            let secure = field.isSecure
            try conn.execute("""
                INSERT INTO formstore_change_fields (change_id, field, old_value, new_value, secure) VALUES ($1, $2, $3, $4, $5)
                """, [id, field.key, secure ? nil : old, secure ? nil : new, secure ? "1" : "0"])
        }
        try prune(keyText, now: now, conn)
    }

    /// Drops what the retention no longer keeps: the record's saves past the
    /// count, and anyone's saves past the age (their fields go by `ON DELETE CASCADE`).
    private func prune(_ keyText: String, now: Date, _ conn: PostgresConnection) throws {
        if let count = retention.maximumCount {
            try conn.execute("""
                DELETE FROM formstore_changes WHERE id IN (SELECT id FROM formstore_changes
                    WHERE form = $1 AND record_key = $2 ORDER BY id DESC OFFSET $3)
                """, [mapping.form.name, keyText, String(max(count, 0))])
        }
        if let cutoff = retention.cutoff(now: now) {
            // The fixed-width ISO-8601 text sorts as the time it names.
            try conn.execute("DELETE FROM formstore_changes WHERE changed_at < $1", [ISO8601.dateTime(cutoff)])
        }
    }

    private func historyTableExists(_ conn: PostgresConnection) throws -> Bool {
        if store.historyTableSeen.withLock({ $0 }) { return true }
        let found = try conn.execute("SELECT pg_catalog.to_regclass('formstore_changes') IS NOT NULL").text(row: 0, column: 0) == "t"
        if found { store.historyTableSeen.withLock { $0 = true } }
        return found
    }
}
