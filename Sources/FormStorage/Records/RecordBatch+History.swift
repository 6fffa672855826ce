import FormCore

/// History in a batch (an import): each record inserted or updated is
/// recorded, in the batch's transaction, as one save by the batch's
/// attribution, the same rows a session's save writes.
extension RecordBatch {
    /// Records the row just inserted with `values`.
    func recordInsert(_ values: [String: FieldValue], _ history: HistoryWriter) throws {
        guard let row = try FormStore.loadRow(mapping, FormStore.insertedKey(mapping, values, connection), connection) else { return }
        try history.record(before: nil, after: row, connection)
    }

    /// Runs `update` between reading the row before and after, and records what changed.
    func recordUpdate(_ key: RecordKey, _ history: HistoryWriter, _ update: () throws -> Bool) throws -> Bool {
        let arguments = try mapping.keyArguments(key)
        let before = try FormStore.loadRow(mapping, arguments, connection)
        guard try update(), let before, let after = try FormStore.loadRow(mapping, arguments, connection) else { return false }
        try history.record(before: before, after: after, connection)
        return true
    }
}
