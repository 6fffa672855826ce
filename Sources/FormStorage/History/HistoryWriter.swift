import FormBasics
import FormCore
import FoundationEssentials

/// Writes one save's history inside the save's transaction (Migrations/0005_history.sql):
/// a `formstore_changes` row and a `formstore_change_fields` row per changed
/// field, then prunes the record's history as `HistoryRetention` asks.
struct HistoryWriter {
    let mapping: TableMapping
    let schema: String
    let attribution: ChangeAttribution
    let retention: HistoryRetention

    /// A row as a save sees it: the decoded record and its stored values by column.
    typealias Row = (record: StoredRecord, stored: [String: DatabaseValue])

    /// Records the fields whose stored value differs between `before` (nil
    /// for a new record) and `after`. Does nothing when FormStore's tables
    /// are not reachable (a database opened without its migrations).
    func record(before: Row?, after: Row, _ conn: Connection) throws {
        guard try FormStore.ownTableExists("formstore_changes", schema: schema, conn) else { return }
        var changed: [(field: Field, old: DatabaseValue, new: DatabaseValue)] = []
        for field in mapping.recordedFields {
            let old = before.map { Self.storedValue(field.key, $0) } ?? .null
            let new = Self.storedValue(field.key, after)
            if old != new { changed.append((field, old, new)) }
        }
        guard !changed.isEmpty else { return }
        let key = try FormStore.keyText(after.record.key)
        let now = Date()
        try conn.cachedStatement("""
            INSERT INTO \(schema).formstore_changes (form, record_key, changed_at, actor, via) VALUES (?, ?, ?, ?, ?)
            """).execute([mapping.form.name, key, ISO8601.dateTime(now), attribution.actor, attribution.via.rawValue])
        let id = conn.lastInsertedRowID
        let insertField = try conn.cachedStatement("""
            INSERT INTO \(schema).formstore_change_fields (change_id, field, old_value, new_value, secure) VALUES (?, ?, ?, ?, ?)
            """)
        for (field, old, new) in changed {
            // A secure field's values never reach the history: only that it changed.
            let secure = field.isSecure
            try insertField.execute(StatementArguments([.integer(id), .text(field.key), secure ? .null : old,
                                                        secure ? .null : new, .integer(secure ? 1 : 0)]))
        }
        try prune(form: mapping.form.name, key: key, now: now, conn)
    }

    /// Drops what the retention no longer keeps: the record's saves past the
    /// count, and anyone's saves past the age.
    private func prune(form: String, key: String, now: Date, _ conn: Connection) throws {
        if let count = retention.maximumCount {
            let old = "SELECT id FROM \(schema).formstore_changes WHERE form = ? AND record_key = ? ORDER BY id DESC LIMIT -1 OFFSET ?"
            let arguments: StatementArguments = [form, key, max(count, 0)]
            try conn.cachedStatement("DELETE FROM \(schema).formstore_change_fields WHERE change_id IN (\(old))").execute(arguments)
            try conn.cachedStatement("DELETE FROM \(schema).formstore_changes WHERE id IN (\(old))").execute(arguments)
        }
        if let cutoff = retention.cutoff(now: now) {
            let old = "SELECT id FROM \(schema).formstore_changes WHERE changed_at < ?"
            let arguments: StatementArguments = [ISO8601.dateTime(cutoff)]
            try conn.cachedStatement("DELETE FROM \(schema).formstore_change_fields WHERE change_id IN (\(old))").execute(arguments)
            try conn.cachedStatement("DELETE FROM \(schema).formstore_changes WHERE changed_at < ?").execute(arguments)
        }
    }


    /// A field's stored value: its column's, or for a JSON path its value as the document holds it.
    static func storedValue(_ field: String, _ row: Row) -> DatabaseValue {
        if let stored = row.stored[field] { return stored }
        return DatabaseValue(row.record.values[field] ?? .null)
    }
}
