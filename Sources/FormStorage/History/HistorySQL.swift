import Synchronization

/// The SQL a save's history writes (`HistoryWriter`), built once per schema
/// FormStore's tables live in rather than interpolated on every save, so each
/// save hands the connection's statement cache the same strings.
struct HistorySQL: Sendable {
    let insertChange: String
    let insertField: String
    /// The record's saves past a count, and anyone's past an age, each as
    /// the two `DELETE`s (fields first, then the saves).
    let pruneByCount: (fields: String, changes: String)
    let pruneByAge: (fields: String, changes: String)

    private init(schema: String) {
        insertChange = "INSERT INTO \(schema).formstore_changes (form, record_key, changed_at, actor, via) "
            + "VALUES (?, ?, ?, ?, ?)"
        insertField = "INSERT INTO \(schema).formstore_change_fields "
            + "(change_id, field, old_value, new_value, secure) VALUES (?, ?, ?, ?, ?)"
        let overCount = "SELECT id FROM \(schema).formstore_changes WHERE form = ? AND record_key = ? "
            + "ORDER BY id DESC LIMIT -1 OFFSET ?"
        pruneByCount = ("DELETE FROM \(schema).formstore_change_fields WHERE change_id IN (\(overCount))",
                        "DELETE FROM \(schema).formstore_changes WHERE id IN (\(overCount))")
        // Ids grow with time, and `changed_at` has no index (a save writes one
        // page less): the saves past the age are those before the first one
        // kept, found by a walk in id order that stops there.
        let firstKept = "(SELECT id FROM \(schema).formstore_changes WHERE changed_at >= ? ORDER BY id LIMIT 1)"
        pruneByAge = ("DELETE FROM \(schema).formstore_change_fields WHERE change_id < \(firstKept)",
                      "DELETE FROM \(schema).formstore_changes WHERE id < \(firstKept)")
    }

    /// The statements for `schema` (`main`, or the sidecar's name).
    static func of(_ schema: String) -> HistorySQL {
        if let found = made.withLock({ $0[schema] }) { return found }
        let sql = HistorySQL(schema: schema)
        made.withLock { $0[schema] = sql }
        return sql
    }

    private static let made = Mutex<[String: HistorySQL]>([:])
}
