import FormBasics
import FormCore
import FoundationEssentials
import Synchronization

/// Writes one save's history inside the save's transaction, into the tables
/// of Migrations/postgres/0005_history.sql (and 0006): a `formstore_changes` row and a
/// `formstore_change_fields` row per changed field, in one statement (one
/// round trip more per save), each value as the column's
/// own text (what the server returned for it, so it reads back through the
/// field's coding as the record did), then prunes the record's history as
/// `HistoryRetention` asks.
struct PostgresHistoryWriter {
    let mapping: PostgresTableMapping
    let attribution: ChangeAttribution
    let retention: HistoryRetention
    /// Remembers whether `formstore_changes` exists.
    let store: PostgresFormStore
    /// The form the changes are recorded under, where not the mapping's: a
    /// group's rows go under their table's name, as its inferred form reads them.
    var recordedAs: String? = nil
    private var formName: String { recordedAs ?? mapping.form.name }

    /// The writer of a group's rows in the same save: by the same person,
    /// kept as long, recorded under the child table's name.
    func forRows(of child: PostgresTableMapping) -> PostgresHistoryWriter {
        PostgresHistoryWriter(mapping: child, attribution: attribution, retention: retention, store: store,
                              recordedAs: child.table.name)
    }

    /// Records the fields whose stored text differs between `before` (nil
    /// for a new record) and `after`. Does nothing when FormStore's tables
    /// are missing (a store opened without its migrations) or the store keeps
    /// no history (`keepsHistory`).
    func record(before: [String: String?]?, after: [String: String?], key: RecordKey, _ conn: PostgresConnection) throws {
        var changed: [(field: Field, old: String?, new: String?)] = []
        for field in mapping.form.fields where field.isStored && field.holdsValue {
            let old = before?[field.key] ?? nil
            let new = after[field.key] ?? nil
            if old != new { changed.append((field, old, new)) }
        }
        guard !changed.isEmpty, store.keepsHistory, try historyTableExists(conn) else { return }
        let keyText = try PostgresFormStore.keyText(key)
        let now = Date()
        // One round trip: the change and its fields in one statement, the fields as parallel arrays.
        // A secure field's values never reach the history: only that it changed.
        func array(_ texts: [String?]) -> String { PostgresCoding.arrayLiteral(texts.map { $0.map(FieldValue.text) ?? .null }) }
        try conn.execute("""
            WITH change AS (INSERT INTO formstore_changes (form, record_key, changed_at, actor, via)
                            VALUES ($1, $2, $3, $4, $5) RETURNING id)
            INSERT INTO formstore_change_fields (change_id, field, old_value, new_value, secure)
            SELECT change.id, f.field, f.old_value, f.new_value, f.secure
            FROM change, unnest($6::text[], $7::text[], $8::text[], $9::integer[]) AS f (field, old_value, new_value, secure)
            """, [formName, keyText, ISO8601.dateTime(now), attribution.actor, attribution.via.rawValue,
                  array(changed.map(\.field.key)),
                  array(changed.map { $0.field.isSecure ? nil : $0.old }),
                  array(changed.map { $0.field.isSecure ? nil : $0.new }),
                  array(changed.map { $0.field.isSecure ? "1" : "0" })])
        try prune(keyText, now: now, conn)
    }

    /// Drops what the retention no longer keeps: the record's saves past the
    /// count, and anyone's saves past the age (their fields go by `ON DELETE CASCADE`);
    /// never the save just made.
    private func prune(_ keyText: String, now: Date, _ conn: PostgresConnection) throws {
        if let count = retention.keptCount {
            try conn.execute("""
                DELETE FROM formstore_changes WHERE id IN (SELECT id FROM formstore_changes
                    WHERE form = $1 AND record_key = $2 ORDER BY id DESC OFFSET $3)
                """, [formName, keyText, String(count)])
        }
        if let cutoff = retention.cutoff(now: now) {
            // As on SQLite: ids grow with time and `changed_at` has no index, so the saves
            // past the age are those before the first one kept, found by a walk in id order.
            // The fixed-width ISO-8601 text sorts as the time it names.
            try conn.execute("""
                DELETE FROM formstore_changes
                WHERE id < (SELECT id FROM formstore_changes WHERE changed_at >= $1 ORDER BY id LIMIT 1)
                """, [ISO8601.dateTime(cutoff)])
        }
    }

    /// Whether the store keeps history: asked of the server once per store
    /// (a store opened without its migrations keeps none until reopened).
    private func historyTableExists(_ conn: PostgresConnection) throws -> Bool {
        if let known = store.historyTable.withLock({ $0 }) { return known }
        let found = try conn.execute("SELECT pg_catalog.to_regclass('formstore_changes') IS NOT NULL").text(row: 0, column: 0) == "t"
        store.historyTable.withLock { $0 = found }
        return found
    }
}
