public import FormCore

/// A batch that also writes the rows of a form's repeating groups
/// (`import --children`), on SQLite (`RecordBatch`) and PostgreSQL alike: a
/// record read with its rows as the batch's transaction sees them, a group's
/// changes written in that transaction.
public protocol ChildRowWriting: RecordWriting {
    /// The record with `key` and the rows of each of the form's groups, if any.
    func loadWithGroups(_ key: RecordKey) throws -> StoredRecord?
    /// Writes each group's inserts, updates and deletes for the parent with
    /// `key`; a failing row undoes this call's writes only, so the caller may
    /// report it and go on.
    func write(_ groups: [GroupChanges], parent key: RecordKey) throws
    /// The key the database gave the record this batch inserted last, for a
    /// form whose key is `columns` (one column the database fills in); nil when it cannot tell.
    func lastInsertedKey(columns: [String]) -> RecordKey?
}

extension RecordBatch: ChildRowWriting {
    public func lastInsertedKey(columns: [String]) -> RecordKey? {
        guard columns.count == 1 else { return nil }
        return RecordKey(columns: columns, values: [.int(lastInsertedRowID)])
    }
}
