import Synchronization
/// Repeating groups kept in memory: a record's rows are kept with it, and a
/// save applies the parent's and every row's change together or not at all.
/// A new row without values for its key columns gets the next integer id.
extension MemoryBackend: GroupBackend {
    public func insert(_ form: Form, values: [String: FieldValue], groups: [GroupChanges],
                       deletingDraft: String?, attribution: ChangeAttribution) throws -> StoredRecord {
        state.withLock { s in
            if let deletingDraft { s.drafts[deletingDraft] = nil }
            s.writes += 1
            var record = Self.store(values, in: &s, keyColumns: keyColumns, bump: form.versionColumn != nil,
                                    versionColumn: form.versionColumn)
            for change in groups {
                guard let group = form.group(change.group) else { continue }
                record.groups[group.key] = Self.applied(change, to: [], group: group, state: &s)
            }
            s.records[record.key] = record
            return record
        }
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       groups: [GroupChanges], deletingDraft: String?, attribution: ChangeAttribution) throws -> UpdateResult {
        state.withLock { s in
            guard var record = s.records[key] else { return .notFound }
            var conflicts = base.conflicts(changes: changes, stored: record.values)
            for change in groups { conflicts += Self.conflicts(of: change, with: record.groups[change.group] ?? [], form: form) }
            guard conflicts.isEmpty else { return .conflict(conflicts) }
            record.values.merge(changes) { $1 }
            for change in groups {
                guard let group = form.group(change.group) else { continue }
                record.groups[group.key] = Self.applied(change, to: record.groups[group.key] ?? [], group: group, state: &s)
            }
            if let column = form.versionColumn {
                let next = (record.version ?? 0) + 1
                record.version = next
                record.values[column] = .int(next)
            }
            s.records[key] = record
            if let deletingDraft { s.drafts[deletingDraft] = nil }
            s.writes += 1
            return .saved(record)
        }
    }

    /// Stores rows of a group as another writer would (no session involved).
    public func putRows(_ rows: [[String: FieldValue]], group: String, of key: RecordKey) {
        state.withLock { s in s.records[key]?.groups[group] = rows }
        heardCommit()
    }

    private static func conflicts(of change: GroupChanges, with stored: [[String: FieldValue]], form: Form) -> [FieldConflict] {
        guard let group = form.group(change.group) else { return [] }
        if let base = change.base {
            return base == stored ? [] : [FieldConflict(field: group.key, base: .int(Int64(base.count)),
                                                        mine: .int(Int64(change.replacement?.count ?? 0)), theirs: .int(Int64(stored.count)))]
        }
        let byKey = Dictionary(stored.compactMap { row in group.rowKey(row).map { ($0, row) } }, uniquingKeysWith: { a, _ in a })
        return (change.updates + change.deletes).flatMap { $0.conflicts(group: group.key, stored: byKey[$0.key]) }
    }

    private static func applied(_ change: GroupChanges, to stored: [[String: FieldValue]], group: RowGroup,
                                 state s: inout State) -> [[String: FieldValue]] {
        if let replacement = change.replacement { return replacement }
        let deleted = Set(change.deletes.map(\.key))
        var rows = stored.filter { row in group.rowKey(row).map { !deleted.contains($0) } ?? true }
        for update in change.updates {
            if let index = rows.firstIndex(where: { group.rowKey($0) == update.key }) { rows[index].merge(update.changes) { $1 } }
        }
        for var row in change.inserts {
            for column in group.keyFields where (row[column] ?? .null) == .null {
                row[column] = .int(s.nextID)
                s.nextID += 1
            }
            rows.append(row)
        }
        if let column = group.orderColumn {
            rows = rows.enumerated().sorted { a, b in
                let x = a.element[column]?.intValue ?? .max, y = b.element[column]?.intValue ?? .max
                return (x, a.offset) < (y, b.offset)
            }.map(\.element)
        }
        return rows
    }
}
