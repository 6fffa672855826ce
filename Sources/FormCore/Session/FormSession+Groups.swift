import FormBasics
/// Editing the rows of repeating groups: add, remove, move, set a row's field.
///
/// ```swift
/// let row = try session.addRow("lines", values: ["item": "Tea"])
/// try session.setRow("lines", row, "amount", input: "4.50")
/// try session.moveRow("lines", row, to: 0)
/// session.rowChange("lines", row)   // .added
/// ```
///
/// Every edit follows the form's edit mode like a field's; in free mode a
/// valid edit is saved at once.
extension FormSession {
    /// Takes the rows a backend loaded as the pristine and current rows.
    func loadGroups(_ stored: [String: [[String: FieldValue]]]) {
        for group in compiled.groups {
            let rows = (stored[group.key] ?? []).map { values in
                GroupRow(id: groupState.newRowID(), values: values, key: group.rowKey(values))
            }
            groupState.pristine[group.key] = rows
            groupState.current[group.key] = rows
        }
    }

    // MARK: Reading

    /// The rows of a group now, in order.
    public func rows(_ group: String) -> [GroupRow] { groupState.current[group] ?? [] }

    /// Stored rows removed in this session (deleted by the next save).
    public func removedRows(_ group: String) -> [GroupRow] {
        let kept = Set(rows(group).map(\.id))
        return (groupState.pristine[group] ?? []).filter { !kept.contains($0.id) }
    }

    /// The row with this id, if it is in the group now.
    public func row(_ group: String, _ id: String) -> GroupRow? { rows(group).first { $0.id == id } }

    /// What a person sees in a row's field: the raw input when it did not
    /// parse, else the value formatted through the field's transformers.
    public func rowText(_ group: String, _ id: String, _ field: String) -> String {
        if let raw = groupState.inputs[id]?[field] { return raw }
        guard let definition = form.group(group)?.field(field), let row = row(group, id) else { return "" }
        return definition.format(row[field])
    }

    /// The errors shown beside a row's fields (`field` is the row field's key).
    public func rowErrors(_ group: String, _ id: String) -> [FieldError] { groupState.rowErrors[id] ?? [] }

    /// Every error of the groups: row fields named by place (`lines[#2].amount`),
    /// then the group rules (`lines` for the number of rows, the parent field for a sum).
    public var groupErrors: [FieldError] {
        // Asked on every change: a form without groups walks nothing.
        guard hasGroups else { return [] }
        return form.groups.flatMap { group in
            rows(group.key).enumerated().flatMap { index, row in
                (groupState.rowErrors[row.id] ?? []).map { error in
                    var named = error
                    named.field = GroupPath.position(group.key, index + 1, error.field)
                    return named
                }
            } + (groupState.ruleErrors[group.key] ?? [])
        }
    }

    /// How a row differs from the one loaded; a cell holding typed text that
    /// did not parse is changed (the text is the person's unsaved change).
    public func rowChange(_ group: String, _ id: String) -> RowChange {
        guard let definition = form.group(group), let row = row(group, id) else { return .unchanged }
        guard let loaded = groupState.pristine[group]?.first(where: { $0.id == id }) else { return .added }
        let typed = groupState.inputs[id] ?? [:]
        let changed = definition.fields.filter {
            $0.holdsValue && $0.isStored && (row[$0.key] != loaded[$0.key] || typed[$0.key] != nil)
        }.map(\.key)
        let moved = definition.keepsOrder && isMoved(id, in: group)
        return changed.isEmpty && !moved ? .unchanged : .changed(fields: changed, moved: moved)
    }

    /// Groups whose rows differ from the ones loaded: added, removed, changed or moved.
    public var dirtyGroups: [String] {
        form.groups.map(\.key).filter(isGroupDirty)
    }

    /// Whether a group's rows differ from the ones loaded, or one of its cells
    /// holds typed text that did not parse.
    public func isGroupDirty(_ group: String) -> Bool {
        let now = rows(group), loaded = groupState.pristine[group] ?? []
        guard now.map(\.id) == loaded.map(\.id) else { return true }
        return zip(now, loaded).contains { $0.values != $1.values || groupState.inputs[$0.id]?.isEmpty == false }
    }

    var areGroupsDirty: Bool {
        // Asked on every keystroke: a form without groups walks nothing.
        hasGroups && form.groups.contains { isGroupDirty($0.key) }
    }

    /// The ids of stored rows still present, in their current order.
    private func storedOrder(_ group: String) -> [String] {
        let loaded = Set((groupState.pristine[group] ?? []).map(\.id))
        return rows(group).map(\.id).filter(loaded.contains)
    }

    private func isPresent(in group: String) -> (String) -> Bool {
        let ids = Set(rows(group).map(\.id))
        return { ids.contains($0) }
    }

    /// A stored row is moved when the stored rows before it are not the ones
    /// that were before it when loaded.
    private func isMoved(_ id: String, in group: String) -> Bool {
        let now = storedOrder(group)
        let then = (groupState.pristine[group] ?? []).map(\.id).filter(isPresent(in: group))
        guard let a = now.firstIndex(of: id), let b = then.firstIndex(of: id) else { return false }
        return Set(now[..<a]) != Set(then[..<b])
    }

    // MARK: Editing

    /// Why the group's rows cannot be changed now, or `nil` when they can.
    public func whyGroupNotEditable(_ group: String) -> String? {
        guard form.group(group) != nil else { return "is not a group of \(form.name)" }
        switch form.mode {
        case .frozen: return "cannot be changed: the form is frozen"
        case .edit where !isEditing: return "cannot be changed before editing begins (beginEditing)"
        default: return nil
        }
    }

    /// Adds a row at `index` (the end when `nil`), its fields at their defaults
    /// and then `values` (taken like `setRow(_:_:_:value:)`); returns its id.
    ///
    /// - throws: `SessionError` when the group is unknown or cannot be changed
    ///   now; a `FieldError` for a value a field cannot hold (nothing is added).
    @discardableResult
    public func addRow(_ group: String, values: [String: FieldValue] = [:], at index: Int? = nil) throws -> String {
        let definition = try editableGroup(group)
        var row = GroupRow(id: "", values: [:], key: nil)
        for field in definition.fields where field.holdsValue { row.values[field.key] = field.defaultValue }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let field = definition.field(name) else {
                // A key column that is no field (`id`) may still be given to a new row.
                guard definition.keyFields.contains(name) else { throw SessionError.unknownField("\(group).\(name)", form: form) }
                row.values[name] = value
                continue
            }
            row.values[name] = try field.coerce(field.choiceValue(value), messages: form.messages)
        }
        row = GroupRow(id: groupState.newRowID(), values: row.values, key: nil)
        try recordingRowsStep(group) {
            var list = rows(group)
            list.insert(row, at: min(max(index ?? list.count, 0), list.count))
            groupState.current[group] = list
            try groupChanged(group)
        }
        return row.id
    }

    /// Removes a row; a stored row is deleted by the next save. Removing a row
    /// added in this session forgets it.
    public func removeRow(_ group: String, _ id: String) throws {
        _ = try editableGroup(group)
        guard row(group, id) != nil else { throw SessionError.unknownRow(group, id) }
        try recordingRowsStep(group) {
            groupState.current[group]?.removeAll { $0.id == id }
            groupState.inputs[id] = nil
            groupState.rowErrors[id] = nil
            try groupChanged(group)
        }
    }

    /// Moves a row to `index` among the rows now (0-based). Moving it back
    /// where it was makes the group clean again.
    ///
    /// - throws: `SessionError` when the group keeps no order (a child table
    ///   without an order column) or the row is unknown.
    public func moveRow(_ group: String, _ id: String, to index: Int) throws {
        let definition = try editableGroup(group)
        guard definition.keepsOrder else {
            throw SessionError.mode("the rows of \(group) keep the order of their keys: the group has no order column")
        }
        var list = rows(group)
        guard let from = list.firstIndex(where: { $0.id == id }) else { throw SessionError.unknownRow(group, id) }
        let row = list.remove(at: from)
        list.insert(row, at: min(max(index, 0), list.count))
        try recordingRowsStep(group) {
            groupState.current[group] = list
            try groupChanged(group)
        }
    }

    /// Sets a row's field from what a person typed, like `set(_:input:)`.
    @discardableResult
    public func setRow(_ group: String, _ id: String, _ field: String, input: String) throws -> SaveOutcome? {
        let (definition, fieldDefinition) = try editableRowField(group, id, field)
        return try recordingRowsStep(group, cell: id + "\u{0}" + field) {
            try setRow(definition, id, fieldDefinition, input: input)
        }
    }

    private func setRow(_ definition: RowGroup, _ id: String, _ fieldDefinition: Field, input: String) throws -> SaveOutcome? {
        let group = definition.key, field = fieldDefinition.key
        switch fieldDefinition.parse(input, in: form) {
        case .success(var value):
            groupState.inputs[id]?[field] = nil
            // A number's column holding text, typed again as shown: the stored text, as for a field.
            if !fieldDefinition.kind.holdsText,
               case .text(let stored) = groupState.pristine[group]?.first(where: { $0.id == id })?[field],
               stored.hasSameUTF8(as: input) {
                value = .text(stored)
            }
            return try applyRow(value, group: definition, id: id, field: fieldDefinition)
        case .failure(let error):
            // What the row holds, typed again as shown (`n/a` in a REAL column): no change, as for a field.
            if let loaded = groupState.pristine[group]?.first(where: { $0.id == id })?[field],
               let stored = Self.storedValue(loaded, typedAs: input, field: fieldDefinition) {
                groupState.inputs[id]?[field] = nil
                return try applyRow(stored, group: definition, id: id, field: fieldDefinition)
            }
            groupState.inputs[id, default: [:]][field] = input
            setRowErrors([error], field: field, row: id)
            emit(.valueChanged(field: group))
            draftChanged()
            return nil
        }
    }

    /// Sets a row's field to a model value, like `set(_:value:)`.
    @discardableResult
    public func setRow(_ group: String, _ id: String, _ field: String, value: FieldValue) throws -> SaveOutcome? {
        let (definition, fieldDefinition) = try editableRowField(group, id, field)
        let given = fieldDefinition.choiceValue(value)
        let loaded = groupState.pristine[group]?.first { $0.id == id }?[field]
        let taken = given == loaded ? given : try fieldDefinition.coerce(given, messages: form.messages)
        return try recordingRowsStep(group, cell: id + "\u{0}" + field) {
            groupState.inputs[id]?[field] = nil
            return try applyRow(taken, group: definition, id: id, field: fieldDefinition)
        }
    }

    func editableGroup(_ group: String) throws -> RowGroup {
        guard let definition = form.group(group) else { throw SessionError.unknownField(group, form: form) }
        if let why = whyGroupNotEditable(group) { throw SessionError.groupNotEditable(group, why) }
        return definition
    }

    private func editableRowField(_ group: String, _ id: String, _ field: String) throws -> (RowGroup, Field) {
        let definition = try editableGroup(group)
        guard let row = row(group, id) else { throw SessionError.unknownRow(group, id) }
        guard let fieldDefinition = definition.field(field) else {
            throw SessionError.unknownField("\(group).\(field)", form: form)
        }
        if !fieldDefinition.holdsValue { throw SessionError.notEditable(fieldDefinition, "is display-only") }
        // A stored row's key is who it is; a new row's key may be typed in.
        let isKey = definition.keyFields.contains(field)
        if (fieldDefinition.isReadOnly && !(row.key == nil && isKey)) || (row.key != nil && isKey) {
            throw SessionError.notEditable(fieldDefinition, "is read-only")
        }
        return (definition, fieldDefinition)
    }

    private func applyRow(_ value: FieldValue, group: RowGroup, id: String, field: Field) throws -> SaveOutcome? {
        guard let index = groupState.current[group.key]?.firstIndex(where: { $0.id == id }) else { return nil }
        groupState.current[group.key]?[index].values[field.key] = value
        let loaded = groupState.pristine[group.key]?.first { $0.id == id }
        if let loaded, loaded[field.key] == value {
            // Put back as stored: nothing of the person's to check (stored text a field would not parse stays).
            setRowErrors([], field: field.key, row: id)
        } else if form.mode == .free || field.effectiveTiming(in: form) == .onChange || !(groupState.rowErrors[id] ?? []).isEmpty {
            validateRowField(field, row: id, group: group)
        }
        return try groupChanged(group.key)
    }

    // MARK: Undo

    /// The group's rows and the cells typed into them that did not parse: what a rows step puts back.
    private func rowsState(_ group: String) -> UndoSteps.RowsState {
        let rows = groupState.current[group] ?? []
        var inputs: [String: [String: String]] = [:]
        for row in rows {
            if let typed = groupState.inputs[row.id], !typed.isEmpty { inputs[row.id] = typed }
        }
        return UndoSteps.RowsState(rows: rows, inputs: inputs)
    }

    /// Makes `change` of `group`'s rows an undo step (`cell` names a run of
    /// keystrokes in one cell), unless it saved itself (free mode: the save is the step).
    private func recordingRowsStep<T>(_ group: String, cell: String? = nil, _ change: () throws -> T) throws -> T {
        let before = rowsState(group)
        let saves = savesSoFar
        let result = try change()
        if savesSoFar == saves { undoSteps.rows(group, cell: cell, before: before, after: rowsState(group)) }
        return result
    }

    /// Puts a group's rows back to a recorded state, each row with the errors it has then.
    func put(rowsOf group: String, _ state: UndoSteps.RowsState) {
        for row in groupState.current[group] ?? [] {
            groupState.inputs[row.id] = nil
            groupState.rowErrors[row.id] = nil
        }
        groupState.current[group] = state.rows
        for (id, typed) in state.inputs { groupState.inputs[id] = typed }
        if let definition = form.group(group) {
            for row in state.rows where state.inputs[row.id] != nil || form.mode == .free {
                _ = validateRow(row, in: definition, changedOnly: true)
            }
        }
        emit(.valueChanged(field: group))
        draftChanged()
    }

    // MARK: After an edit

    /// After any edit of a group: tells observers, and in free mode saves a
    /// valid group at once; otherwise the draft follows.
    @discardableResult
    private func groupChanged(_ group: String) throws -> SaveOutcome? {
        emit(.valueChanged(field: group))
        if form.mode == .free, key != nil, let definition = form.group(group) {
            let valid = rows(group).allSatisfy { row in validateRow(row, in: definition, changedOnly: false).isEmpty }
                && validateGroupRules(definition).isEmpty && !groupState.hasInputs
            if valid, isGroupDirty(group) { return try write(only: []) }
        }
        draftChanged()
        return nil
    }

    // MARK: Validation

    /// Runs a row field's checks against the row's values.
    @discardableResult
    func validateRowField(_ field: Field, row id: String, group: RowGroup) -> [FieldError] {
        guard let row = row(group.key, id) else { return [] }
        var found = form.validate(field: field, value: row[field.key], values: row.values, editing: isEditing)
        if let input = groupState.inputs[id]?[field.key], case .failure(let error) = field.parse(input, in: form) {
            found = [error]
        }
        setRowErrors(found, field: field.key, row: id)
        return found
    }

    /// Validates a row's fields (only those changed from the loaded row when
    /// `changedOnly`, all of a new row); returns the errors.
    func validateRow(_ row: GroupRow, in group: RowGroup, changedOnly: Bool) -> [FieldError] {
        let loaded = groupState.pristine[group.key]?.first { $0.id == row.id }
        return group.fields.filter(\.holdsValue).flatMap { field -> [FieldError] in
            let untouched = changedOnly && loaded != nil && loaded?[field.key] == row[field.key]
                && groupState.inputs[row.id]?[field.key] == nil
            if untouched {
                setRowErrors([], field: field.key, row: row.id)
                return []
            }
            return validateRowField(field, row: row.id, group: group)
        }
    }

    /// Checks the group's rules over its rows: the number of rows, values
    /// unique within the group, parent fields equal to a sum of a column.
    func validateGroupRules(_ group: RowGroup) -> [FieldError] {
        var found: [FieldError] = []
        let list = rows(group.key)
        let label = sectionTitle(group)
        if let min = group.minRows, list.count < min {
            found.append(FieldError(field: group.key, code: "minRows",
                                    message: "\(label) needs at least \(min) row\(min == 1 ? "" : "s")"))
        }
        if let max = group.maxRows, list.count > max {
            found.append(FieldError(field: group.key, code: "maxRows",
                                    message: "\(label) may have at most \(max) row\(max == 1 ? "" : "s")"))
        }
        for name in group.uniqueFields {
            var seen: [FieldValue: Int] = [:]
            for (index, row) in list.enumerated() where !row[name].isEmpty {
                if let first = seen[row[name]] {
                    let fieldLabel = group.field(name)?.label ?? name
                    found.append(FieldError(field: GroupPath.position(group.key, index + 1, name), code: "unique",
                                            message: "\(fieldLabel) of row \(index + 1) is the same as row \(first + 1)'s"))
                } else {
                    seen[row[name]] = index
                }
            }
        }
        for sum in group.sums {
            let total = list.reduce(0.0) { $0 + ($1[sum.column].doubleValue ?? 0) }
            let stated = value(sum.field).doubleValue ?? 0
            if abs(total - stated) > 1e-9 * max(1, abs(total)) {
                let fieldLabel = field(sum.field)?.label ?? sum.field
                let columnLabel = group.field(sum.column)?.label ?? sum.column
                found.append(FieldError(field: sum.field, code: "sum",
                                        message: "\(fieldLabel) must equal the sum of \(label)'s \(columnLabel) (\(Transform.decimalText(total)))"))
            }
        }
        if groupState.ruleErrors[group.key] ?? [] != found {
            groupState.ruleErrors[group.key] = found.isEmpty ? nil : found
            emit(.validationChanged(field: group.key))
        }
        return found
    }

    /// Validates what a save checks of the groups: every row of a new record,
    /// else the changed fields of stored rows and every field of added rows;
    /// the rules of a group that changed (or whose sum field did). Returns the errors.
    @discardableResult
    public func validateGroups() -> [FieldError] {
        for group in form.groups {
            let whole = key == nil || saveValidation == .everything
            for row in rows(group.key) { _ = validateRow(row, in: group, changedOnly: !whole) }
            if whole || isGroupDirty(group.key) || group.sums.contains(where: { isChanged($0.field) }) {
                _ = validateGroupRules(group)
            } else {
                groupState.ruleErrors[group.key] = nil
            }
        }
        return groupErrors
    }

    private func sectionTitle(_ group: RowGroup) -> String {
        form.sections.first { $0.group?.key == group.key }?.title ?? group.key
    }

    private func setRowErrors(_ errors: [FieldError], field: String, row id: String) {
        var list = (groupState.rowErrors[id] ?? []).filter { $0.field != field }
        list += errors
        let old = groupState.rowErrors[id] ?? []
        groupState.rowErrors[id] = list.isEmpty ? nil : list
        if old != list { emit(.validationChanged(field: field)) }
    }
}

extension RowGroup {
    /// A stored row's key from its values; `nil` when the group has no key
    /// columns (an array) or the row holds none of them. A key column holding
    /// NULL is part of the key: SQLite lets a primary key other than an
    /// INTEGER one hold NULL, and the row is found by it (`IS NULL`).
    func rowKey(_ values: [String: FieldValue]) -> RecordKey? {
        guard !keyFields.isEmpty, keyFields.contains(where: { values[$0] != nil }) else { return nil }
        return RecordKey(columns: keyFields, values: keyFields.map { values[$0] ?? .null })
    }
}

extension SessionError {
    static func unknownRow(_ group: String, _ id: String) -> SessionError {
        SessionError(reason: .unknownField, message: "group \(group) has no row \(id)", field: group)
    }

    static func groupNotEditable(_ group: String, _ why: String) -> SessionError {
        SessionError(reason: .modeForbids, message: "\(group) \(why)", field: group)
    }
}
