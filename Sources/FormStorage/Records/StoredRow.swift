import FormCore

/// A row as a save reads it: the decoded record, and each column's value
/// exactly as SQLite holds it, by position in the mapping's `columns`.
///
/// The conflict check, the `UPDATE`'s stored forms and the history's diff
/// walk these positions; a dictionary by column name per row read was a
/// tenth of a save's instructions (issue 14).
struct StoredRow {
    var record: StoredRecord
    var stored: [DatabaseValue]
    /// Which positions were read when the row was read in part
    /// (`TableMapping.rowToUpdate(from:positions:)`), by position; `nil`:
    /// every column. The others' `stored` values are NULL placeholders.
    var wasRead: [Bool]? = nil

    /// Whether the column at `position` was read.
    func wasRead(_ position: Int) -> Bool { wasRead?[position] ?? true }

    /// The stored values by column name (what a batch's callers take).
    func storedByColumn(_ mapping: TableMapping) -> [String: DatabaseValue] {
        Dictionary(zip(mapping.columns, stored), uniquingKeysWith: { first, _ in first })
    }
}
