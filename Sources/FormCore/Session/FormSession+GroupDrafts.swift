/// The rows of repeating groups in drafts: kept with the parent's values, and
/// restored by a three-way merge per row.
extension FormSession {
    /// The groups that changed, as a draft keeps them; `nil` when none did.
    /// Secure row fields are left out, as a parent's are.
    var groupDraft: [String: DraftGroup]? {
        guard hasGroups else { return nil }
        var result: [String: DraftGroup] = [:]
        for group in form.groups {
            let inputs = rows(group.key).contains { groupState.inputs[$0.id]?.isEmpty == false }
            guard isGroupDirty(group.key) || inputs else { continue }
            result[group.key] = groupRows(group.key).draft(of: group)
        }
        return result.isEmpty ? nil : result
    }

    /// A group's rows now, as loaded and as typed: what a draft of them is
    /// made from, taken to another thread (a signal's handler makes the
    /// draft of an editor's document there, `GroupRowsSnapshot.draft(of:)`).
    public func groupRows(_ group: String) -> GroupRowsSnapshot {
        let rows = rows(group)
        return GroupRowsSnapshot(rows: rows, loaded: loadedRows(group),
                                 inputs: groupState.inputs.filter { id, _ in rows.contains { $0.id == id } })
    }

    /// Restores a draft's rows onto the rows stored now. For each stored row
    /// the draft changed: a field someone else changed meanwhile to another
    /// value is a conflict (`lines[7].amount`), a row they deleted is one
    /// (`lines[7]`); the rest is taken. New rows are added; rows the draft
    /// removed are removed. A group without key columns (an array) is taken
    /// whole when the stored array is still the draft's base, else it conflicts.
    func restoreGroups(_ groups: [String: DraftGroup]?, into result: inout DraftRestore) {
        for (name, saved) in (groups ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let group = form.group(name) else {
                result.missingFields.append(name)
                continue
            }
            let stored = groupState.pristine[name] ?? []
            if group.keyFields.isEmpty {
                guard stored.map(\.values) == saved.base else {
                    result.conflicts.append(FieldConflict(field: name, base: .int(Int64(saved.base.count)),
                                                          mine: .int(Int64(saved.rows.count)), theirs: .int(Int64(stored.count))))
                    continue
                }
                groupState.current[name] = saved.rows.map { row in
                    let id = groupState.newRowID()
                    if !row.inputs.isEmpty { groupState.inputs[id] = row.inputs }
                    return GroupRow(id: id, values: row.values, key: nil)
                }
                result.restored.append(name)
                continue
            }
            let byKey = Dictionary(stored.compactMap { row in row.key.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })
            let bases = Dictionary(saved.base.compactMap { row in group.rowKey(row).map { ($0, row) } }, uniquingKeysWith: { a, _ in a })
            var rows: [GroupRow] = []
            var mentioned: Set<RecordKey> = []
            for draftRow in saved.rows {
                guard let key = draftRow.key else {
                    let id = groupState.newRowID()
                    if !draftRow.inputs.isEmpty { groupState.inputs[id] = draftRow.inputs }
                    rows.append(GroupRow(id: id, values: draftRow.values, key: nil))
                    result.restored.append(GroupPath.position(name, rows.count))
                    continue
                }
                mentioned.insert(key)
                guard var row = byKey[key] else {
                    if !draftRow.values.isEmpty || !draftRow.inputs.isEmpty {
                        result.conflicts.append(FieldConflict(field: GroupPath.row(name, key), base: .text("stored"),
                                                              mine: .text("changed"), theirs: .text("deleted")))
                    }
                    continue
                }
                let base = bases[key] ?? [:]
                for (column, mine) in draftRow.values.sorted(by: { $0.key < $1.key }) {
                    let was = base[column] ?? .null, theirs = row[column]
                    if theirs != was && theirs != mine {
                        result.conflicts.append(FieldConflict(field: "\(GroupPath.row(name, key)).\(column)", base: was, mine: mine, theirs: theirs))
                        continue
                    }
                    row.values[column] = mine
                    result.restored.append("\(GroupPath.row(name, key)).\(column)")
                }
                if !draftRow.inputs.isEmpty { groupState.inputs[row.id] = draftRow.inputs }
                rows.append(row)
            }
            // Rows the draft removed: gone, unless someone changed them meanwhile.
            for (key, base) in bases where !mentioned.contains(key) {
                guard let row = byKey[key], row.values != base else { continue }
                result.conflicts.append(FieldConflict(field: GroupPath.row(name, key), base: .text("stored"),
                                                      mine: .text("deleted"), theirs: .text("changed")))
                rows.append(row)
                mentioned.insert(key)
            }
            // Rows added by someone else since the draft was made stay, at the end.
            rows += stored.filter { row in row.key.map { bases[$0] == nil && !mentioned.contains($0) } ?? false }
            groupState.current[name] = rows
            for row in rows {
                for field in group.fields where groupState.inputs[row.id]?[field.key] != nil {
                    validateRowField(field, row: row.id, group: group)
                }
            }
            emit(.valueChanged(field: name))
        }
    }
}
