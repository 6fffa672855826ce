import FormBasics
import FoundationEssentials
import FormCore
import FormStorage

/// `import --children`: after a row's parent is written, its groups' rows are
/// planned by a `FormSession` over the record as the batch sees it (held in a
/// `MemoryBackend`), exactly as `set --json --children` plans them: a row with
/// its key is updated (only what differs), one without inserted, a stored row
/// the array leaves out deleted, positions only where the order changed. The
/// changes are then written in the import's transaction.
extension RecordImporter {
    /// Names in the input's rows that are no group of the form.
    func unknownGroups(_ input: InputRecord) -> [String] {
        input.rows.keys.sorted().filter { form.group($0) == nil }
    }

    /// Writes the input's child rows under the parent with `key`.
    ///
    /// - returns: whether any row was written.
    /// - throws: `RowProblems` for rows that do not parse or validate; `DatabaseError` or `PostgresError`.
    func writeRows(_ input: InputRecord, parent key: RecordKey, into batch: any ChildRowWriting) throws -> Bool {
        guard !input.rows.isEmpty, let record = try batch.loadWithGroups(key) else { return false }
        if let earlier = rowsStated[record.key], earlier != input.line {
            throw RowProblems(messages: ["\(form.tableName) \(record.key.typedText) has its rows on line \(earlier) too: "
                                         + "give each record's rows once (each array is the whole group)"])
        }
        rowsStated[record.key] = input.line
        let memory = MemoryBackend(keyColumns: record.key.columns)
        var values = record.values
        for (column, value) in zip(record.key.columns, record.key.values) { values[column] = value }
        let held = memory.put(values)
        for (group, rows) in record.groups { memory.putRows(rows, group: group, of: held.key) }
        let session = try FormSession.open(form, key: held.key, backend: memory, draftPolicy: .none)
        // The rows' dates are read as their columns store them (an export's Julian day, `2024-3-5`).
        session.storedDateReader = batch
        if form.mode == .edit { try session.beginEditing() }
        do {
            try session.apply(json: Data(ChildRowsJSON.body(input.rows)))
        } catch {
            throw RowProblems(messages: error.errors.map(\.description))
        }
        let problems = session.validateGroups()
        guard problems.isEmpty else { throw RowProblems(messages: problems.map(\.description)) }
        let changes = session.groupChanges
        guard !changes.isEmpty else { return false }
        for change in changes {
            guard let group = form.group(change.group) else { continue }
            // A row the line's group leaves out is deleted: written too. A new row naming its whole key is
            // claimed by it: a row another line's group deleted, written here, would move to this parent.
            // (Not a row of the form's own table: an export lists it as a line too, with the same values,
            // which its line's own write then checks, as an update.)
            let ownTable = group.tableName.equalsIgnoringCase(form.tableName)
            let named = change.inserts.compactMap { values -> RecordKey? in
                guard group.keyFields.allSatisfy({ (values[$0] ?? .null) != .null }) else { return nil }
                return RecordKey(columns: group.keyFields, values: group.keyFields.map { values[$0]! })
            }
            // A record of the form's own table made here is new when its own line comes (`insertedAsRows`).
            if ownTable { insertedAsRows.formUnion(named) }
            let claimed = ownTable ? [] : named
            for key in change.updates.map(\.key) + change.deletes.map(\.key) + claimed {
                try claim(key, of: group.tableName, line: input.line)
            }
        }
        try batch.write(changes, parent: key)
        return true
    }

    /// The parent's key after its row was written: the key the input names,
    /// else the key the database just gave it (SQLite's rowid, PostgreSQL's identity or serial).
    func parentKey(of input: InputRecord, outcome: Outcome, in batch: any ChildRowWriting) -> RecordKey? {
        let columns = keyColumns
        let given = columns.compactMap { column in input.values[column].map { raw in
            raw.textValue.map { keyValue($0, column) } ?? raw
        } }
        if given.count == columns.count, !given.contains(.null) { return RecordKey(columns: columns, values: given) }
        guard outcome == .inserted else { return nil }
        return batch.lastInsertedKey(columns: columns)
    }
}
