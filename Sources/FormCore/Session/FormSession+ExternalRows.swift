/// Commits by others reach the rows of an open session's groups, as they
/// reach its parent fields (`FormSession+External.swift`): rows and cells
/// nobody touched here take what is stored (a row added there appears, a row
/// deleted there goes), and a cell or row edited here that someone else
/// changed too is flagged (base, mine, theirs) before any save. A flagged row
/// keeps its old base, so a save of it is refused by the backend's check.
extension FormSession {
    /// The rows and cells someone else changed underneath an edit here, not
    /// resolved yet: `lines[7].amount` for a cell, `lines[7]` for a row
    /// deleted on one side and changed on the other.
    public var externalRowConflicts: [FieldConflict] {
        (externalWatch?.rowConflicts ?? []).filter(isStillOpen).map(\.conflict)
    }

    /// A flag stands while the row keeps its old base and its own edit.
    func isStillOpen(_ mark: ExternalRowConflict) -> Bool {
        guard let loaded = groupState.pristine[mark.group]?.first(where: { $0.id == mark.row }) else { return false }
        let now = row(mark.group, mark.row)
        guard let column = mark.column else {
            // Deleted there, changed here; or changed there, removed here.
            return mark.conflict.theirs == .text("deleted") ? now.map { $0.values != loaded.values } ?? false : now == nil
        }
        guard let now else { return false }
        return loaded[column] == mark.conflict.base && now[column] != loaded[column]
    }

    /// Takes the stored rows read for `take(external:)`: returns the rows
    /// that took a change and every open row conflict.
    func takeGroups(external stored: [String: [[String: FieldValue]]]) -> (rows: [ExternalRowChange], conflicts: [FieldConflict]) {
        guard !form.groups.isEmpty else { return ([], []) }
        var marks = (externalWatch?.rowConflicts ?? []).filter(isStillOpen)
        var taken: [ExternalRowChange] = []
        for group in form.groups where !group.keyFields.isEmpty {
            let rows = stored[group.key] ?? []
            if !isGroupDirty(group.key) && !groupState.inputs.keys.contains(where: { id in self.rows(group.key).contains { $0.id == id } }) {
                taken += takeWhole(group, rows)
            } else {
                taken += merge(group, rows, marks: &marks)
            }
        }
        externalWatch?.rowConflicts = marks
        return (taken, marks.map(\.conflict))
    }

    /// A group nobody changed here takes the stored rows whole, in their order.
    private func takeWhole(_ group: RowGroup, _ stored: [[String: FieldValue]]) -> [ExternalRowChange] {
        let loaded = Dictionary(rows(group.key).compactMap { row in row.key.map { ($0, row) } }, uniquingKeysWith: { a, _ in a })
        var taken: [ExternalRowChange] = []
        var seen: Set<RecordKey> = []
        let rows = stored.map { values -> GroupRow in
            let key = group.rowKey(values)
            if let key { seen.insert(key) }
            guard let key, let old = loaded[key] else {
                let row = GroupRow(id: groupState.newRowID(), values: values, key: key)
                if let key { taken.append(ExternalRowChange(group: group.key, key: key, row: row.id, kind: .added)) }
                return row
            }
            let fields = changedColumns(old.values, values, in: group)
            if !fields.isEmpty { taken.append(ExternalRowChange(group: group.key, key: key, row: old.id, kind: .changed(fields: fields))) }
            return GroupRow(id: old.id, values: values, key: key)
        }
        for row in self.rows(group.key) {
            guard let key = row.key, !seen.contains(key) else { continue }
            taken.append(ExternalRowChange(group: group.key, key: key, row: nil, kind: .deleted))
            groupState.rowErrors[row.id] = nil
        }
        guard !taken.isEmpty || rows.map(\.values) != self.rows(group.key).map(\.values) else { return [] }
        groupState.pristine[group.key] = rows
        groupState.current[group.key] = rows
        return taken
    }

    /// A group edited here: each stored row is merged row by row, cell by cell.
    private func merge(_ group: RowGroup, _ stored: [[String: FieldValue]],
                       marks: inout [ExternalRowConflict]) -> [ExternalRowChange] {
        var taken: [ExternalRowChange] = []
        let byKey = Dictionary(stored.compactMap { values in group.rowKey(values).map { ($0, values) } }, uniquingKeysWith: { a, _ in a })
        var pristine = groupState.pristine[group.key] ?? []
        var current = rows(group.key)
        let known = Set(pristine.compactMap(\.key))
        var gone: Set<String> = []
        for (index, loaded) in pristine.enumerated() {
            guard let key = loaded.key else { continue }
            let here = current.firstIndex { $0.id == loaded.id }
            guard let theirs = byKey[key] else {
                // Deleted there.
                if let here, current[here].values != loaded.values || groupState.inputs[loaded.id] != nil {
                    flag(ExternalRowConflict(group: group.key, row: loaded.id, column: nil,
                                             conflict: FieldConflict(field: GroupPath.row(group.key, key), base: .text("stored"),
                                                                     mine: .text("changed"), theirs: .text("deleted"))), in: &marks)
                    continue
                }
                if let here { current.remove(at: here) }
                gone.insert(loaded.id)
                if here != nil { taken.append(ExternalRowChange(group: group.key, key: key, row: nil, kind: .deleted)) }
                continue
            }
            guard theirs != loaded.values else { continue }
            guard let here else {
                // Changed there, removed here: the removal meets their change.
                let columns = changedColumns(loaded.values, theirs, in: group)
                guard !columns.isEmpty else { pristine[index].values = theirs; continue }
                flag(ExternalRowConflict(group: group.key, row: loaded.id, column: nil,
                                         conflict: FieldConflict(field: GroupPath.row(group.key, key), base: .text("stored"),
                                                                 mine: .text("deleted"), theirs: .text("changed")),
                                         stored: theirs), in: &marks)
                continue
            }
            var took: [String] = []
            var base = loaded.values
            for column in Set(loaded.values.keys).union(theirs.keys).sorted() {
                let was = loaded[column], now = theirs[column] ?? .null, mine = current[here][column]
                guard was != now else { continue }
                let typed = groupState.inputs[loaded.id]?[column] != nil
                if mine == was && !typed {
                    current[here].values[column] = now
                    base[column] = now
                    if group.field(column) != nil || group.keyFields.contains(column) || group.orderColumn == column { took.append(column) }
                } else if mine == now && !typed {
                    base[column] = now
                } else {
                    let original = marks.first { $0.row == loaded.id && $0.column == column }?.conflict.base ?? was
                    flag(ExternalRowConflict(group: group.key, row: loaded.id, column: column,
                                             conflict: FieldConflict(field: "\(GroupPath.row(group.key, key)).\(column)",
                                                                     base: original, mine: mine, theirs: now)), in: &marks)
                }
            }
            pristine[index].values = base
            let shown = took.filter { group.field($0) != nil }
            if !took.isEmpty { taken.append(ExternalRowChange(group: group.key, key: key, row: loaded.id, kind: .changed(fields: shown))) }
        }
        pristine.removeAll { gone.contains($0.id) }
        for values in stored {
            guard let key = group.rowKey(values), !known.contains(key) else { continue }
            let row = GroupRow(id: groupState.newRowID(), values: values, key: key)
            pristine.append(row)
            current.append(row)
            taken.append(ExternalRowChange(group: group.key, key: key, row: row.id, kind: .added))
        }
        groupState.pristine[group.key] = pristine
        groupState.current[group.key] = current
        return taken
    }

    /// The stored columns that differ, as a person names them (row fields first).
    private func changedColumns(_ old: [String: FieldValue], _ new: [String: FieldValue], in group: RowGroup) -> [String] {
        group.fields.filter { $0.holdsValue && (old[$0.key] ?? .null) != (new[$0.key] ?? .null) }.map(\.key)
    }

    private func flag(_ mark: ExternalRowConflict, in marks: inout [ExternalRowConflict]) {
        marks.removeAll { $0.row == mark.row && $0.column == mark.column }
        marks.append(mark)
    }

    /// Ends the flag on a row or cell changed underneath (see
    /// `resolveExternalConflict(_:keepMine:)`); whether `name` was one.
    func resolveExternalRowConflict(_ name: String, keepMine: Bool) -> Bool {
        guard let externalWatch, let mark = externalWatch.rowConflicts.filter(isStillOpen).first(where: { $0.conflict.field == name }),
              let index = groupState.pristine[mark.group]?.firstIndex(where: { $0.id == mark.row }) else { return false }
        externalWatch.rowConflicts.removeAll { $0.row == mark.row && $0.column == mark.column }
        let group = mark.group
        if let column = mark.column {
            groupState.pristine[group]?[index].values[column] = mark.conflict.theirs
            if !keepMine, let here = groupState.current[group]?.firstIndex(where: { $0.id == mark.row }) {
                groupState.current[group]?[here].values[column] = mark.conflict.theirs
                groupState.inputs[mark.row]?[column] = nil
            }
        } else if mark.conflict.theirs == .text("deleted") || mark.stored != nil {
            settleWholeRow(group, at: index, deletedThere: mark.conflict.theirs == .text("deleted"), stored: mark.stored,
                           keepMine: keepMine)
        }
        emit(.valueChanged(field: group))
        draftChanged()
        return true
    }

    /// A whole row one side deleted and the other changed, settled: the
    /// loaded row at `index` of the group's base deleted there (`deletedThere`)
    /// goes (theirs), or stays as a new row holding its values (mine); removed
    /// here and changed there (to `stored`, when given), it is deleted against
    /// their row (mine), or comes back as they saved it (theirs).
    func settleWholeRow(_ group: String, at index: Int, deletedThere: Bool, stored theirs: [String: FieldValue]?,
                        keepMine: Bool) {
        guard let loaded = groupState.pristine[group]?[index] else { return }
        if deletedThere {
            groupState.pristine[group]?.remove(at: index)
            if let here = groupState.current[group]?.firstIndex(where: { $0.id == loaded.id }) {
                if keepMine { groupState.current[group]?[here].key = nil } else { groupState.current[group]?.remove(at: here) }
            }
            return
        }
        if let theirs { groupState.pristine[group]?[index].values = theirs }
        if !keepMine {
            var list = groupState.current[group] ?? []
            list.insert(GroupRow(id: loaded.id, values: theirs ?? loaded.values, key: loaded.key), at: min(index, list.count))
            groupState.current[group] = list
        }
    }
}
