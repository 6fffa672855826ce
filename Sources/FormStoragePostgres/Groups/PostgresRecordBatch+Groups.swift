import FormCore
import FormStorage
import FoundationEssentials

/// Repeating groups inside an import's transaction (`import --children`) on
/// PostgreSQL: a record read with its rows as the transaction sees them (a
/// parent written earlier in the batch included), a group's changes written
/// in a savepoint of their own.
extension PostgresRecordBatch: ChildRowWriting {
    func loadWithGroups(_ key: RecordKey) throws -> StoredRecord? {
        let result = try connection.execute(mapping.selectByKeySQL, try mapping.keyParameters(key))
        guard result.rowCount == 1 else { return nil }
        var record = mapping.record(result, row: 0)
        record.groups = try PostgresFormStore.rows(children, of: record.key, connection)
        return record
    }

    func write(_ groups: [GroupChanges], parent key: RecordKey) throws {
        guard !groups.isEmpty else { return }
        try inSavepoint {
            for change in groups {
                guard let child = children.first(where: { $0.group.key == change.group }) else { continue }
                try child.write(change, parent: key, stored: try child.lockedRows(of: key, connection), history: history, connection)
            }
        }
    }

    func storedDate(_ value: FieldValue, field: String, group: String?, of form: Form) -> Date? {
        guard let group else { return storedDate(value, field: field) }
        return children.first { $0.group.key == group }?.mapping.storedDate(value, field: field)
    }

    func lastInsertedKey(columns: [String]) -> RecordKey? {
        guard let lastInserted, lastInserted.columns == columns else { return nil }
        return lastInserted
    }
}
