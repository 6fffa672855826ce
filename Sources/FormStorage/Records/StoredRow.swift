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
    /// The positions read when the row was read in part
    /// (`TableMapping.rowToUpdate(from:positions:)`); `nil`: every column.
    var readPositions: [Int]? = nil

    /// A row read in part before an `UPDATE` that changed nothing else,
    /// completed by the row read back after it: the columns not read were
    /// the same before as after. A row read whole is itself.
    func completed(by after: StoredRow) -> StoredRow {
        guard let readPositions else { return self }
        var stored = after.stored
        for position in readPositions { stored[position] = self.stored[position] }
        return StoredRow(record: record, stored: stored)
    }

    /// The stored values by column name (what a batch's callers take).
    func storedByColumn(_ mapping: TableMapping) -> [String: DatabaseValue] {
        Dictionary(zip(mapping.columns, stored), uniquingKeysWith: { first, _ in first })
    }
}
