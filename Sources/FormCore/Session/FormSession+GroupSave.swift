/// Saving, cancelling and reloading the rows of repeating groups with the parent.
extension FormSession {
    /// What the next save writes to each group that changed.
    ///
    /// A group with an order column gets positions 1, 2, 3 … only where a row's
    /// stored position no longer follows the one before it: rows that kept
    /// their place keep their stored position (and are not written).
    public var groupChanges: [GroupChanges] {
        form.groups.compactMap { group in
            guard isGroupDirty(group.key) else { return nil }
            var changes = GroupChanges(group: group.key)
            let loaded = Dictionary((groupState.pristine[group.key] ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let now = rows(group.key)
            if group.keyFields.isEmpty {
                changes.replacement = now.map { storedValues($0, in: group) }
                changes.base = (groupState.pristine[group.key] ?? []).map(\.values)
                return changes
            }
            let positions = group.orderColumn.map { positionsOf(now, column: $0) } ?? [:]
            changes.storedForms = extrasIfMade?.rowStoredForms[group.key] ?? [:]
            for row in now {
                var values = storedValues(row, in: group)
                if let column = group.orderColumn, let position = positions[row.id] { values[column] = position }
                guard let old = loaded[row.id], let key = old.key else {
                    changes.inserts.append(values)
                    continue
                }
                let written = values.filter { column, value in (old.values[column] ?? .null) != value }
                guard !written.isEmpty else { continue }
                changes.updates.append(RowUpdate(key: key, changes: written,
                                                 base: written.keys.reduce(into: [:]) { $0[$1] = old.values[$1] ?? .null }))
            }
            for row in removedRows(group.key) {
                guard let key = row.key else { continue }
                changes.deletes.append(RowUpdate(key: key, changes: [:], base: row.values))
            }
            return changes
        }
    }

    /// A row's stored fields (and its key columns, which may be no field).
    private func storedValues(_ row: GroupRow, in group: RowGroup) -> [String: FieldValue] {
        var values: [String: FieldValue] = [:]
        for field in group.fields where field.holdsValue && field.isStored { values[field.key] = row[field.key] }
        for column in group.keyFields where row.values[column] != nil { values[column] = row[column] }
        return values
    }

    /// Each row's position: its stored one while it still follows the row
    /// before it (the first row's whatever it is, so positions counted from
    /// 0 stay so), else one more than that row's (1 for a first row without one).
    private func positionsOf(_ rows: [GroupRow], column: String) -> [String: FieldValue] {
        var result: [String: FieldValue] = [:]
        var last: Int64?
        for row in rows {
            if let stored = row[column].intValue, last.map({ stored > $0 }) ?? true {
                last = stored
                result[row.id] = row[column]
            } else {
                let next = (last ?? 0) + 1
                last = next
                result[row.id] = .int(next)
            }
        }
        return result
    }

    // MARK: Writing through the backend

    /// Inserts the record, with its rows when any group has some.
    func insertRecord(values: [String: FieldValue]) throws -> StoredRecord {
        let groups = groupChanges
        guard !groups.isEmpty else { return try backendInsert(values) }
        let record = try groupBackend().insert(form, values: values, groups: groups,
                                              deletingDraft: draftDeletedByWrite, attribution: attribution)
        adoptGroups(record.groups)
        return record
    }

    /// Updates the record and every changed row in one transaction.
    func updateRecord(_ plan: UpdatePlan) throws -> UpdateResult {
        let groups = groupChanges.filter { plan.groups.contains($0.group) }
        guard !groups.isEmpty else {
            return try backendUpdate(plan)
        }
        let result = try groupBackend().update(form, key: plan.key, changes: plan.changes, base: plan.base,
                                               groups: groups, deletingDraft: draftDeletedByWrite, attribution: attribution)
        if case .saved(let record) = result { adoptGroups(record.groups) }
        return result
    }

    nonisolated(nonsending)
    func insertRecord(values: [String: FieldValue]) async throws -> StoredRecord {
        let groups = groupChanges
        guard !groups.isEmpty else { return try await backendInsert(values) }
        let record = try await groupBackend().insert(form, values: values, groups: groups,
                                                    deletingDraft: draftDeletedByWrite, attribution: attribution)
        adoptGroups(record.groups)
        return record
    }

    nonisolated(nonsending)
    func updateRecord(_ plan: UpdatePlan) async throws -> UpdateResult {
        let groups = groupChanges.filter { plan.groups.contains($0.group) }
        guard !groups.isEmpty else {
            return try await backendUpdate(plan)
        }
        let result = try await groupBackend().update(form, key: plan.key, changes: plan.changes, base: plan.base,
                                                     groups: groups, deletingDraft: draftDeletedByWrite, attribution: attribution)
        if case .saved(let record) = result { adoptGroups(record.groups) }
        return result
    }

    private func groupBackend() throws -> any GroupBackend {
        guard let backend = backend as? any GroupBackend else {
            throw SessionError.mode("\(form.name) has rows in groups, but its backend stores no groups")
        }
        return backend
    }

    /// Takes the rows as stored after a save: rows keep their ids (a new row
    /// the id it was added with, matched in order), and become pristine.
    private func adoptGroups(_ stored: [String: [[String: FieldValue]]]) {
        for group in form.groups {
            let now = rows(group.key)
            let byKey = Dictionary(now.compactMap { row in row.key.map { ($0, row.id) } }, uniquingKeysWith: { a, _ in a })
            var added = now.filter { $0.key == nil }.map(\.id)[...]
            let rows = (stored[group.key] ?? []).map { values -> GroupRow in
                let key = group.rowKey(values)
                let id = key.flatMap { byKey[$0] } ?? added.popFirst() ?? groupState.newRowID()
                return GroupRow(id: id, values: values, key: key)
            }
            groupState.pristine[group.key] = rows
            groupState.current[group.key] = rows
        }
    }

    // MARK: Cancel and reload

    /// Back to the rows as loaded; their inputs and errors are dropped.
    func revertGroups() {
        groupState.current = groupState.pristine
        groupState.inputs = [:]
        groupState.rowErrors = [:]
        groupState.ruleErrors = [:]
    }

    /// Takes reloaded rows: a group nobody changed here takes them whole; a
    /// changed group keeps its edits and gets the stored rows as its base,
    /// each cell left alone here taking the stored value (as a parent field does).
    func takeGroups(reloaded stored: [String: [[String: FieldValue]]]) {
        for group in form.groups where isGroupDirty(group.key) {
            // Its stored rows' base becomes what is stored now, so the next save
            // does not meet the same change again; a row gone meanwhile stays
            // in the base, its deletion met again by the save.
            let now = Dictionary((stored[group.key] ?? []).compactMap { values in group.rowKey(values).map { ($0, values) } },
                                 uniquingKeysWith: { a, _ in a })
            let old = Dictionary((groupState.pristine[group.key] ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            groupState.pristine[group.key] = groupState.pristine[group.key]?.map { row in
                guard let key = row.key, let values = now[key] else { return row }
                return GroupRow(id: row.id, values: values, key: key)
            }
            // Without this a cell someone else changed and nobody touched here
            // would differ from its new base: the row would stay marked changed
            // after taking theirs, and the save would write the old value back.
            groupState.current[group.key] = groupState.current[group.key]?.map { row in
                guard let key = row.key, let values = now[key], let loaded = old[row.id] else { return row }
                var row = row
                let typed = groupState.inputs[row.id] ?? [:]
                for (column, value) in values where row[column] == loaded[column] && typed[column] == nil {
                    row.values[column] = value
                }
                return row
            }
        }
        for group in form.groups where !isGroupDirty(group.key) {
            let ids = Dictionary(rows(group.key).compactMap { row in row.key.map { ($0, row.id) } }, uniquingKeysWith: { a, _ in a })
            let rows = (stored[group.key] ?? []).map { values -> GroupRow in
                let key = group.rowKey(values)
                return GroupRow(id: key.flatMap { ids[$0] } ?? groupState.newRowID(), values: values, key: key)
            }
            groupState.pristine[group.key] = rows
            groupState.current[group.key] = rows
        }
    }
}

extension FormSession {
    /// Whether `conflict` is about a whole row (`lines[11]`: one side deleted
    /// it, the other changed it), which `settleRowConflict` settles, rather
    /// than a cell (`lines[11].amount`) or a field.
    public func isRowConflict(_ conflict: FieldConflict) -> Bool {
        storedRow(named: conflict.field) != nil
    }

    /// Settles a conflict about a whole row, after `reload()` (a refused
    /// save) or a draft's restore:
    ///
    /// - someone else deleted the row you changed: yours keeps it, as a new
    ///   row holding your values (its key too); theirs lets it go;
    /// - you deleted the row someone else changed: yours deletes it; theirs
    ///   puts it back as it is stored now.
    ///
    /// A row settled either way is met by the next save as what it is, so
    /// the save does not meet the same conflict again.
    ///
    /// - throws: `SessionError` when the conflict names no stored row of a group.
    public func settleRowConflict(_ conflict: FieldConflict, keepMine: Bool) throws {
        guard let (group, index) = storedRow(named: conflict.field) else {
            throw SessionError.unknownField(conflict.field, form: form)
        }
        // After `reload()` the base holds the row as stored now: theirs, where they changed it.
        settleWholeRow(group, at: index, deletedThere: conflict.theirs == .text("deleted"), stored: nil, keepMine: keepMine)
        emit(.valueChanged(field: group))
        draftChanged()
    }

    /// Sets what a conflict names to `value`: a field, or a stored row's cell
    /// (`lines[11].amount`, the row found by its key wherever it is now).
    ///
    /// - throws: as `set(_:value:)` and `setRow(_:_:_:value:)`; `SessionError`
    ///   when the path names neither.
    @discardableResult
    public func set(conflicting path: String, value: FieldValue) throws -> SaveOutcome? {
        if form.field(path) != nil { return try set(path, value: value) }
        for group in form.groups {
            for row in rows(group.key) {
                guard let key = row.key else { continue }
                let prefix = GroupPath.row(group.key, key) + "."
                if path.hasPrefix(prefix) { return try setRow(group.key, row.id, String(path.dropFirst(prefix.count)), value: value) }
            }
        }
        return try set(path, value: value)
    }

    /// The group and place in its base of the loaded row a row conflict's name (`lines[11]`) points at.
    private func storedRow(named path: String) -> (group: String, index: Int)? {
        for group in form.groups {
            for (index, row) in (groupState.pristine[group.key] ?? []).enumerated() {
                if let key = row.key, GroupPath.row(group.key, key) == path { return (group.key, index) }
            }
        }
        return nil
    }
}
