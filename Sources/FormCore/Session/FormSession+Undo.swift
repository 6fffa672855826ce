/// Undo and redo: each field edit is a step (a run of keystrokes in one field
/// is one step), and so is each save of a stored record. Undoing a save makes
/// a new save of the previous values, validated and checked for conflicts
/// like any other.
///
/// ```swift
/// try session.set("city", input: "Ber")
/// try session.set("city", input: "Bergen")   // the same step
/// try session.undo()                          // city is back as loaded
/// try session.redo()                          // "Bergen" again
/// _ = try session.save()
/// let outcome = try session.undo()            // a new save of the old city
/// ```
extension FormSession {
    /// Whether `undo()` has a step to take back.
    public var canUndo: Bool { !undoSteps.done.isEmpty }
    /// Whether `redo()` has an undone step to take again.
    public var canRedo: Bool { !undoSteps.undone.isEmpty }

    /// The fields the next `undo()` puts back, for a button's label ("Undo city").
    public var undoFields: [String] { undoSteps.done.last?.fields ?? [] }
    /// The fields the next `redo()` changes again.
    public var redoFields: [String] { undoSteps.undone.last?.fields ?? [] }

    /// Whether the next `undo()` takes back a save (and so saves).
    public var undoSaves: Bool {
        if case .save? = undoSteps.done.last { return true }
        return false
    }

    /// Takes back the last step. An edit step puts the field's value (or its
    /// typed input) back and returns `nil`; a save step saves the values it
    /// replaced and returns how that went: when it is not `.saved` the step
    /// stays, and the fields keep their saved values.
    ///
    /// - throws: `SessionError` when there is nothing to undo, or a save would
    ///   also write other unsaved changes; the backend's error.
    @discardableResult
    public func undo() throws -> SaveOutcome? {
        guard let step = undoSteps.done.last else { throw SessionError.mode("nothing to undo") }
        undoSteps.openRun = nil
        switch step {
        case .edit(let field, let before, _):
            undoSteps.done.removeLast()
            undoSteps.undone.append(step)
            put(field, before)
            emit(.undone(fields: [field]))
            return nil
        case .save(let fields, let before, let after, let rows):
            let outcome = try resave(fields, values: before, saved: after, rows: rows.before, savedRows: rows.after)
            if case .saved = outcome {
                undoSteps.done.removeLast()
                undoSteps.undone.append(step)
                emit(.undone(fields: step.fields))
            }
            return outcome
        }
    }

    /// Takes the last undone step again; for a save step, a new save of the
    /// values it had saved (see `undo()`).
    ///
    /// - throws: as `undo()`.
    @discardableResult
    public func redo() throws -> SaveOutcome? {
        guard let step = undoSteps.undone.last else { throw SessionError.mode("nothing to redo") }
        undoSteps.openRun = nil
        switch step {
        case .edit(let field, _, let after):
            undoSteps.undone.removeLast()
            undoSteps.done.append(step)
            put(field, after)
            emit(.redone(fields: [field]))
            return nil
        case .save(let fields, let before, let after, let rows):
            let outcome = try resave(fields, values: after, saved: before, rows: rows.after, savedRows: rows.before)
            if case .saved = outcome {
                undoSteps.undone.removeLast()
                undoSteps.done.append(step)
                emit(.redone(fields: step.fields))
            }
            return outcome
        }
    }

    // MARK: Recording

    /// A field's state before an edit, for `endUndoStep`.
    func beginUndoStep(_ key: String) -> (key: String, before: UndoSteps.FieldState, saves: Int) {
        (key, fieldState(key), undoSteps.saves)
    }

    /// Records the edit begun with `beginUndoStep`, when it changed something
    /// and did not save itself (a free-mode save is recorded as the save).
    func endUndoStep(_ step: (key: String, before: UndoSteps.FieldState, saves: Int)) {
        let after = fieldState(step.key)
        guard after != step.before, undoSteps.saves == step.saves else { return }
        undoSteps.edit(step.key, before: step.before, after: after)
    }

    /// Records a saved update (called once the backend saved it).
    func noteSave(_ plan: UpdatePlan) {
        var after: [String: FieldValue] = [:]
        for field in plan.fields { after[field] = pristine[field] ?? .null }
        undoSteps.save(plan.fields, before: plan.base.values, after: after,
                       rows: SavedRows(groups: plan.groups, before: plan.rowsBefore, after: rowsSnapshot(plan.groups)))
    }

    private func fieldState(_ key: String) -> UndoSteps.FieldState {
        UndoSteps.FieldState(value: value(key), input: inputs[key])
    }

    /// Puts a field back to a recorded state, with the errors that state has.
    private func put(_ key: String, _ state: UndoSteps.FieldState) {
        guard let field = field(key) else { return }
        current[key] = state.value
        inputs[key] = state.input
        if let input = state.input, case .failure(let error) = field.parse(input) {
            setErrors([error], for: key)
        } else if form.mode == .free || field.effectiveTiming(in: form) == .onChange || fieldErrors[key] != nil {
            validateField(field)
        }
        emit(.valueChanged(field: key))
        draftChanged()
    }

    /// Saves `values` over `fields`, whose stored values must still be `saved`,
    /// and the groups' `rows` over theirs, which must still be `savedRows`:
    /// a field or row someone else changed since is a conflict, and nothing is written.
    private func resave(_ fields: [String], values: [String: FieldValue], saved: [String: FieldValue],
                        rows: [String: [[String: FieldValue]]], savedRows: [String: [[String: FieldValue]]]) throws -> SaveOutcome {
        let conflicts = fields.compactMap { field -> FieldConflict? in
            let theirs = pristine[field] ?? .null
            let base = saved[field] ?? .null
            guard theirs != base else { return nil }
            return FieldConflict(field: field, base: base, mine: values[field] ?? .null, theirs: theirs)
        } + rowConflicts(putting: rows, over: savedRows)
        if !conflicts.isEmpty { return .conflict(conflicts) }
        let others = dirtyFields.filter { !fields.contains($0) } + dirtyGroups
        guard others.isEmpty && inputs.isEmpty && !groupState.hasInputs else {
            throw SessionError.mode("save or cancel the unsaved changes (\(others.joined(separator: ", "))) before undoing a save")
        }
        let kept = fields.map { ($0, current[$0]) }
        let keptRows = groupState.current
        for field in fields { current[field] = values[field] ?? .null }
        put(rows: rows)
        validateGroups()
        let errors = validateChanges()
        guard errors.isEmpty else {
            for (field, value) in kept { current[field] = value }
            groupState.current = keptRows
            validateGroups()
            validateChanges()
            return .invalid(errors)
        }
        undoSteps.replaying = true
        defer { undoSteps.replaying = false }
        let outcome: SaveOutcome
        do {
            outcome = try write(only: fields)
        } catch {
            for (field, value) in kept { current[field] = value }
            groupState.current = keptRows
            throw error
        }
        if case .saved = outcome {
            for field in fields + rows.keys.sorted() { emit(.valueChanged(field: field)) }
        } else {
            for (field, value) in kept { current[field] = value }
            groupState.current = keptRows
        }
        return outcome
    }
}
