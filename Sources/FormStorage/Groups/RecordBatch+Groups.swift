public import FormCore

/// Repeating groups inside a batch (`import --children`): a record read with
/// its rows as the batch's transaction sees them (a parent written earlier in
/// the batch included), and a group's changes written in that transaction.
extension RecordBatch {
    /// The record with `key` and the rows of each of the form's groups, if any.
    ///
    /// - throws: `FormStoreError` (`.badKey`) for a key without every key column; `DatabaseError`.
    public func loadWithGroups(_ key: RecordKey) throws -> StoredRecord? {
        guard var record = try load(key) else { return nil }
        record.groups = try FormStore.loadRows(children, of: record.key, connection)
        return record
    }

    /// Writes each group's inserts, updates and deletes for the parent with
    /// `key`, as a session's save does; a failing row undoes this call's
    /// writes only (a savepoint), so the caller may report it and go on.
    ///
    /// - throws: `DatabaseError`, such as a failed constraint.
    public func write(_ groups: [GroupChanges], parent key: RecordKey) throws {
        guard !groups.isEmpty else { return }
        try connection.transaction {
            try FormStore.write(groups, children, parent: key, history: history, connection)
        }
    }
}
