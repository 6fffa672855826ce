public import FormCore
public import FoundationEssentials

/// A batch that also writes the rows of a form's repeating groups
/// (`import --children`), on SQLite (`RecordBatch`) and PostgreSQL alike: a
/// record read with its rows as the batch's transaction sees them, a group's
/// changes written in that transaction.
///
/// It reads a group's dates as their columns store them (`StoredDateReading`),
/// so an export's child rows read back as written: a Julian day, `2024-3-5`.
public protocol ChildRowWriting: RecordWriting, StoredDateReading {
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
    public func storedDate(_ value: FieldValue, field: String, group: String?, of form: Form) -> Date? {
        guard let group else { return storedDate(value, field: field) }
        return children.first { $0.group.key == group }?.mapping.storedDate(value, field: field)
    }


    public func lastInsertedKey(columns: [String]) -> RecordKey? {
        guard columns.count == 1 else { return nil }
        return RecordKey(columns: columns, values: [.int(lastInsertedRowID)])
    }
}
