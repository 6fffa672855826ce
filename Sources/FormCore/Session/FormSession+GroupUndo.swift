/// Undo and redo of a save that wrote rows: the step keeps the groups' rows
/// as loaded before the save and as stored after it (`SavedRows`); undoing
/// it saves the earlier rows again — stored rows updated back, rows the save
/// removed inserted again with their keys, rows it added deleted — in one
/// save with the fields, checked for conflicts like any other.
extension FormSession {
    /// The rows of `groups` as loaded or last saved, by group.
    func rowsSnapshot(_ groups: [String]) -> [String: [[String: FieldValue]]] {
        var rows: [String: [[String: FieldValue]]] = [:]
        for group in groups { rows[group] = loadedRows(group).map(\.values) }
        return rows
    }

    /// The rows someone else changed since the step's save: the rows as the
    /// session knows them must still be `saved`. A row is named `lines[7]`,
    /// a cell `lines[7].amount`, a group without keys by its key.
    func rowConflicts(putting rows: [String: [[String: FieldValue]]],
                      over saved: [String: [[String: FieldValue]]]) -> [FieldConflict] {
        rows.keys.sorted().flatMap { name -> [FieldConflict] in
            guard let group = form.group(name) else { return [] }
            let columns = writtenColumns(group)
            let known = loadedRows(name).map { $0.values.filter { columns.contains($0.key) } }
            let was = (saved[name] ?? []).map { $0.filter { columns.contains($0.key) } }
            let wanted = rows[name] ?? []
            guard !group.keyFields.isEmpty else {
                return known == was ? [] : [FieldConflict(field: name, base: .int(Int64(was.count)),
                                                          mine: .int(Int64(wanted.count)), theirs: .int(Int64(known.count)))]
            }
            let now = keyed(known, group), then = keyed(was, group), mine = keyed(wanted, group)
            var found: [FieldConflict] = []
            for (key, old) in then.sorted(by: { $0.key.description < $1.key.description }) {
                let path = GroupPath.row(name, key)
                guard let stored = now[key] else {
                    found.append(FieldConflict(field: path, base: .text("stored"),
                                               mine: mine[key] == nil ? .text("deleted") : .text("changed"), theirs: .text("deleted")))
                    continue
                }
                for column in columns.sorted() where (old[column] ?? .null) != (stored[column] ?? .null) {
                    found.append(FieldConflict(field: "\(path).\(column)", base: old[column] ?? .null,
                                               mine: mine[key]?[column] ?? .text("deleted"), theirs: stored[column] ?? .null))
                }
            }
            for key in now.keys.sorted(by: { $0.description < $1.description }) where then[key] == nil {
                found.append(FieldConflict(field: GroupPath.row(name, key), base: .text("absent"),
                                           mine: mine[key] == nil ? .text("absent") : .text("added"), theirs: .text("added")))
            }
            return found
        }
    }

    /// Makes `rows` the current rows of their groups: a stored row keeps its
    /// id, a row no longer stored is added again with its key columns.
    func put(rows: [String: [[String: FieldValue]]]) {
        for (name, target) in rows {
            guard let group = form.group(name) else { continue }
            let loaded = Dictionary(loadedRows(name).compactMap { row in row.key.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })
            groupState.current[name] = target.map { values in
                if let key = group.rowKey(values), let old = loaded[key] { return GroupRow(id: old.id, values: values, key: key) }
                return GroupRow(id: groupState.newRowID(), values: values, key: nil)
            }
        }
    }

    /// Puts back what a resave replaced when it was not saved.
    func restore(_ kept: KeptValues) {
        // A resave's row forms go with the rows it did not write.
        if extrasIfMade?.rowStoredForms.isEmpty == false { extras.rowStoredForms = [:] }
        for (field, value) in kept.fields {
            current[field] = value
            // A resave's stored forms go with the values it did not write.
            extrasIfMade?.storedForms[field] = nil
        }
        for (group, rows) in kept.rows { groupState.current[group] = rows }
    }

    /// The columns a save writes to a group's rows, and so the ones undo compares.
    private func writtenColumns(_ group: RowGroup) -> Set<String> {
        var columns = Set(group.fields.filter { $0.holdsValue && $0.isStored }.map(\.key))
        columns.formUnion(group.keyFields)
        if let order = group.orderColumn { columns.insert(order) }
        return columns
    }

    private func keyed(_ rows: [[String: FieldValue]], _ group: RowGroup) -> [RecordKey: [String: FieldValue]] {
        Dictionary(rows.compactMap { values in group.rowKey(values).map { ($0, values) } }, uniquingKeysWith: { a, _ in a })
    }
}

/// What an undo's or redo's save replaced, put back when it is not saved:
/// the fields' values and the groups' rows.
struct KeptValues {
    var fields: [(String, FieldValue?)]
    var rows: [String: [GroupRow]]

    /// The groups whose rows the save put in place.
    var changedGroups: [String] { rows.keys.sorted() }
}
