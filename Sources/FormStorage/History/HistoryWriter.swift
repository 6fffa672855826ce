import FormBasics
import FormCore
import FoundationEssentials

/// Writes one save's history inside the save's transaction (Migrations/0005_history.sql, 0006):
/// a `formstore_changes` row and a `formstore_change_fields` row per changed
/// field, then prunes the record's history as `HistoryRetention` asks.
struct HistoryWriter {
    /// The table's mapping, held by the cache's reference: a `TableMapping`
    /// copied into each save's writer retained and released some thirty
    /// references (about 2k instructions a save, issue 14).
    let cached: CachedMapping
    var mapping: TableMapping { _read { yield cached.mapping } }
    let schema: String
    let attribution: ChangeAttribution
    let retention: HistoryRetention
    /// The form the changes are recorded under, where not the mapping's:
    /// a group's rows go under their table's name, as the table's inferred
    /// form (`history invoice_line 10`) reads them.
    var recordedAs: String? = nil
    private var formName: String { recordedAs ?? mapping.form.name }

    /// The writer of a group's rows in the same save: by the same person,
    /// kept as long, recorded under the child table's name.
    func forRows(of child: TableMapping) -> HistoryWriter {
        HistoryWriter(cached: CachedMapping(child), schema: schema, attribution: attribution, retention: retention,
                      recordedAs: child.table.name)
    }

    /// A row as a batch reads it: the decoded record and its stored values by column.
    typealias Row = (record: StoredRecord, stored: [String: DatabaseValue])

    /// `record(before:after:)` of rows whose stored values are by column name.
    func record(before: Row?, after: Row, _ conn: Connection) throws {
        let positional = { (row: Row) in
            StoredRow(record: row.record, stored: mapping.columns.map { row.stored[$0] ?? .null })
        }
        try record(before: before.map(positional), after: positional(after), conn)
    }

    /// Records the fields whose stored value differs between `before` (nil
    /// for a new record) and `after`, compared by column position. A column
    /// `before` did not read (`StoredRow.positions`) is one the update could
    /// not change. Does nothing when FormStore's tables are not reachable (a
    /// database opened without its migrations).
    func record(before: StoredRow?, after: StoredRow, _ conn: Connection) throws {
        let sql = HistorySQL.of(schema)
        guard try FormStore.ownTableExists("formstore_changes", schema: schema, conn) else { return }
        // By the field's index in `recordedFields`: a copy of the `Field`
        // itself retained and released its every part, per changed field.
        var changed: [(field: Int, old: DatabaseValue, new: DatabaseValue)] = []
        func compare(_ index: Int) {
            let old = before.map { storedValue(index, $0) } ?? .null
            let new = storedValue(index, after)
            if old != new { changed.append((index, old, new)) }
        }
        if let before, let positions = before.positions {
            // Read in part, which a form with JSON paths never is: only the
            // columns read can have changed, and on a wide form they are a
            // few of hundreds. Columns follow the form's fields, so this is
            // the fields' order too.
            for position in positions {
                guard let index = mapping.recordedFieldOfColumn[position],
                      !before.holdsSameStored(at: position, as: after) else { continue }
                compare(index)
            }
        } else {
            for index in mapping.recordedFields.indices {
                // A column the save left as it was is compared where it is stored, not copied out.
                if let before, let column = mapping.recordedColumns[index],
                   before.holdsSameStored(at: column, as: after) {
                    continue
                }
                compare(index)
            }
        }
        guard !changed.isEmpty else { return }
        let key = try FormStore.keyText(after.record.key)
        let now = Date()
        // Bound as the values they are, not through `DatabaseValueConvertible`
        // existentials (a boxing per value, per save).
        try conn.cachedStatement(sql.insertChange)
            .execute(StatementArguments([.text(formName), .text(key), .text(ISO8601.dateTime(now)),
                                         attribution.actor.map { .text($0) } ?? .null,
                                         .text(attribution.via.rawValue)]))
        let id = conn.lastInsertedRowID
        let insertField = try conn.cachedStatement(sql.insertField)
        for (field, old, new) in changed {
            // A secure field's values never reach the history: only that it changed.
            let secure = mapping.recordedFields[field].isSecure
            try insertField.execute(StatementArguments([.integer(id), .text(mapping.recordedFields[field].key),
                                                        secure ? .null : old, secure ? .null : new,
                                                        .integer(secure ? 1 : 0)]))
        }
        try prune(form: formName, key: key, now: now, sql, conn)
    }

    /// Drops what the retention no longer keeps: the record's saves past the
    /// count, and anyone's saves past the age; never the save just made.
    private func prune(form: String, key: String, now: Date, _ sql: HistorySQL, _ conn: Connection) throws {
        if let count = retention.keptCount {
            let arguments: StatementArguments = [form, key, count]
            try conn.cachedStatement(sql.pruneByCount.fields).execute(arguments)
            try conn.cachedStatement(sql.pruneByCount.changes).execute(arguments)
        }
        if let cutoff = retention.cutoff(now: now) {
            let arguments: StatementArguments = [ISO8601.dateTime(cutoff)]
            try conn.cachedStatement(sql.pruneByAge.fields).execute(arguments)
            try conn.cachedStatement(sql.pruneByAge.changes).execute(arguments)
        }
    }

    /// The stored value of the `index`th of `mapping.recordedFields`: its
    /// column's, or for a JSON path its value as the document holds it.
    private func storedValue(_ index: Int, _ row: StoredRow) -> DatabaseValue {
        if let column = mapping.recordedColumns[index] { return row.stored(at: column) ?? .null }
        return DatabaseValue(row.record.slotValues.slots[mapping.recordedSlots[index]] ?? .null)
    }
}
