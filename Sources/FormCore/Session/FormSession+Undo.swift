/// Undo and redo: each field edit is a step (a run of keystrokes in one field
/// is one step), so is each change of a repeating group's rows (a row added,
/// removed or moved, a run of keystrokes in one cell), and so is each save of
/// a stored record. Undoing a save makes
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
    public var canUndo: Bool { undoSteps.canUndo }
    /// Whether `redo()` has an undone step to take again.
    public var canRedo: Bool { !undoSteps.undone.isEmpty }

    /// The fields the next `undo()` puts back, for a button's label ("Undo city").
    public var undoFields: [String] { undoSteps.lastDone?.fields ?? [] }
    /// The fields the next `redo()` changes again.
    public var redoFields: [String] { undoSteps.undone.last?.fields ?? [] }

    /// Whether the next `undo()` takes back a save (and so saves).
    public var undoSaves: Bool {
        if case .save? = undoSteps.lastDone { return true }
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
        guard case .save(let fields, let before, let after, let rows, let forms) = try takeStep(undoing: true) else { return nil }
        let outcome = try resave(fields, values: before, saved: after, rows: rows.before, savedRows: rows.after,
                                 storedForms: forms?.before, rowForms: forms?.rows ?? [:])
        settleSaveStep(outcome, undoing: true)
        return outcome
    }

    /// Takes the last undone step again; for a save step, a new save of the
    /// values it had saved (see `undo()`).
    ///
    /// - throws: as `undo()`.
    @discardableResult
    public func redo() throws -> SaveOutcome? {
        guard case .save(let fields, let before, let after, let rows, let forms) = try takeStep(undoing: false) else { return nil }
        let outcome = try resave(fields, values: after, saved: before, rows: rows.after, savedRows: rows.before,
                                 storedForms: forms?.after, rowForms: [:])
        settleSaveStep(outcome, undoing: false)
        return outcome
    }

    /// The step `undo()` (or `redo()`) takes. An edit step is taken here and
    /// now; a save step is left in place for `settleSaveStep` once its save went.
    func takeStep(undoing: Bool) throws -> UndoSteps.Step {
        undoSteps.closeRun()
        guard let step = undoing ? undoSteps.lastDone : undoSteps.undone.last else {
            throw SessionError.mode(undoing ? "nothing to undo" : "nothing to redo")
        }
        switch step {
        case .edit(let field, let before, let after):
            undoSteps.moveLast(undoing: undoing)
            put(field, undoing ? before : after)
            emit(undoing ? .undone(fields: [field]) : .redone(fields: [field]))
        case .rows(let group, let before, let after):
            undoSteps.moveLast(undoing: undoing)
            put(rowsOf: group, undoing ? before : after)
            emit(undoing ? .undone(fields: [group]) : .redone(fields: [group]))
        case .save:
            break
        }
        return step
    }

    /// Moves a save step to the other stack when its save was made; else it stays.
    func settleSaveStep(_ outcome: SaveOutcome, undoing: Bool) {
        guard case .saved = outcome, let step = undoing ? undoSteps.lastDone : undoSteps.undone.last else { return }
        undoSteps.moveLast(undoing: undoing)
        emit(undoing ? .undone(fields: step.fields) : .redone(fields: step.fields))
    }

    // MARK: Recording

    /// Records an edit of `key` from `before` to `after`, when it changed
    /// something and did not save itself (a free-mode save is recorded as the
    /// save): `saves` is the count of saves when the edit began. The editor
    /// passes both states, which it knows: looking them up again was a
    /// keystroke's second and third key lookup (issue 14).
    func endUndoStep(_ key: String, before: UndoSteps.FieldState, after: UndoSteps.FieldState, saves: Int) {
        guard after != before, savesSoFar == saves else { return }
        undoSteps.edit(key, before: before, after: after)
    }

    /// Records a saved update (called once the backend saved it), with the
    /// stored forms its store says it replaced and wrote.
    func noteSave(_ plan: UpdatePlan, forms: WrittenForms?) {
        if !plan.base.storedForms.isEmpty { extras.storedForms = [:] }
        if extrasIfMade?.rowStoredForms.isEmpty == false { extras.rowStoredForms = [:] }
        if extrasIfMade?.heldValues.isEmpty == false { extras.heldValues = [:] }
        var after: [String: FieldValue] = [:]
        for field in plan.fields { after[field] = pristineValues[field] ?? .null }
        undoSteps.save(plan.fields, before: plan.base.values, after: after,
                       rows: SavedRows(groups: plan.groups, before: plan.rowsBefore, after: rowsSnapshot(plan.groups)),
                       forms: forms)
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

    /// Saves `values` over `fields`, whose stored values must still be `saved`:
    /// a field someone else changed since is a conflict, and nothing is written.
    private func resave(_ fields: [String], values: [String: FieldValue], saved: [String: FieldValue],
                        rows: [String: [[String: FieldValue]]], savedRows: [String: [[String: FieldValue]]],
                        storedForms: [String: FieldValue]?, rowForms: [String: [RecordKey: [String: FieldValue]]]) throws -> SaveOutcome {
        let kept: KeptValues
        switch try prepareResave(fields, values: values, saved: saved, rows: rows, savedRows: savedRows,
                                 storedForms: storedForms, rowForms: rowForms) {
        case .finished(let outcome): return outcome
        case .write(let values): kept = values
        }
        undoSteps.replaying = true
        defer { undoSteps.replaying = false }
        let outcome: SaveOutcome
        do {
            outcome = try write(only: fields)
        } catch {
            restore(kept)
            throw error
        }
        return finishResave(fields, outcome, kept: kept)
    }

    /// What a resave does before it writes.
    enum Resave {
        /// Refused before any write (a conflict, an invalid value).
        case finished(SaveOutcome)
        /// The fields hold the values to save; these are theirs before, to put back if the save fails.
        case write(kept: KeptValues)
    }

    /// Checks a resave and puts the values (and the groups' `rows`, whose
    /// stored rows must still be `savedRows`) in place to be written, each
    /// in its stored form from `storedForms` where that holds it.
    func prepareResave(_ fields: [String], values: [String: FieldValue], saved: [String: FieldValue],
                       rows: [String: [[String: FieldValue]]], savedRows: [String: [[String: FieldValue]]],
                       storedForms: [String: FieldValue]?,
                       rowForms: [String: [RecordKey: [String: FieldValue]]] = [:]) throws -> Resave {
        let conflicts = fields.compactMap { field -> FieldConflict? in
            let theirs = pristineValues[field] ?? .null
            let base = saved[field] ?? .null
            guard theirs != base else { return nil }
            return FieldConflict(field: field, base: base, mine: values[field] ?? .null, theirs: theirs)
        } + rowConflicts(putting: rows, over: savedRows)
        if !conflicts.isEmpty { return .finished(.conflict(form.markingSecure(conflicts))) }
        let others = dirtyFields.filter { !fields.contains($0) } + dirtyGroups
        guard others.isEmpty && inputs.isEmpty && !groupState.hasInputs else {
            throw SessionError.mode("save or cancel the unsaved changes (\(others.joined(separator: ", "))) before undoing a save")
        }
        let kept = KeptValues(fields: fields.map { ($0, current[$0]) }, rows: groupState.current.filter { rows.keys.contains($0.key) })
        for field in fields { current[field] = values[field] ?? .null }
        put(rows: rows)
        validateGroups()
        let errors = validateChanges()
        guard errors.isEmpty else {
            restore(kept)
            validateGroups()
            validateChanges()
            return .finished(.invalid(errors))
        }
        if let storedForms {
            for field in fields { if let form = storedForms[field] { extras.storedForms[field] = form } }
        }
        if !rowForms.isEmpty { extras.rowStoredForms = rowForms }
        return .write(kept: kept)
    }

    /// Takes a resave's outcome: the fields' events when saved, their old values back when not.
    func finishResave(_ fields: [String], _ outcome: SaveOutcome, kept: KeptValues) -> SaveOutcome {
        if case .saved = outcome {
            for field in fields + kept.changedGroups { emit(.valueChanged(field: field)) }
        } else {
            restore(kept)
        }
        return outcome
    }
}
