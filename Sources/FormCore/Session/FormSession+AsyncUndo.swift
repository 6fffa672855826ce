/// Undo and redo, awaited: an edit step is taken at once (it touches no
/// storage); a save step's new save goes through the backend's async API, as
/// `save()` awaited does, so the task waits without holding a thread of the
/// cooperative pool.
///
/// ```swift
/// if session.undoSaves, case .conflict(let conflicts)? = try await session.undo() {
///     return .conflict(conflicts)   // someone saved the field since
/// }
/// ```
extension FormSession {
    /// `undo()`, awaited.
    ///
    /// - throws: as `undo()`; `CancellationError` when the task was cancelled
    ///   before the save committed (the step stays, the fields keep their saved values).
    @discardableResult
    nonisolated(nonsending)
    public func undo() async throws -> SaveOutcome? {
        guard case .save(let fields, let before, let after, let rows, let forms) = try takeStep(undoing: true) else { return nil }
        let outcome = try await resave(fields, values: before, saved: after, rows: rows.before, savedRows: rows.after,
                                       storedForms: forms?.before, rowForms: forms?.rows ?? [:])
        settleSaveStep(outcome, undoing: true)
        return outcome
    }

    /// `redo()`, awaited.
    ///
    /// - throws: as `undo()` awaited.
    @discardableResult
    nonisolated(nonsending)
    public func redo() async throws -> SaveOutcome? {
        guard case .save(let fields, let before, let after, let rows, let forms) = try takeStep(undoing: false) else { return nil }
        let outcome = try await resave(fields, values: after, saved: before, rows: rows.after, savedRows: rows.before,
                                       storedForms: forms?.after, rowForms: [:])
        settleSaveStep(outcome, undoing: false)
        return outcome
    }

    nonisolated(nonsending)
    private func resave(_ fields: [String], values: [String: FieldValue], saved: [String: FieldValue],
                        rows: [String: [[String: FieldValue]]], savedRows: [String: [[String: FieldValue]]],
                        storedForms: [String: FieldValue]?,
                        rowForms: [String: [RecordKey: [String: FieldValue]]]) async throws -> SaveOutcome {
        let kept: KeptValues
        switch try prepareResave(fields, values: values, saved: saved, rows: rows, savedRows: savedRows,
                                 storedForms: storedForms, rowForms: rowForms) {
        case .finished(let outcome): return outcome
        case .write(let values): kept = values
        }
        guard let key else { throw SessionError.mode("only a stored record's save can be undone") }
        undoSteps.replaying = true
        defer { undoSteps.replaying = false }
        let plan = updatePlan(fields, key: key)
        await autosaver?.cancelPending()
        let result: UpdateResult
        do {
            result = try await updateRecord(plan)
        } catch {
            draftChanged(rejected: true)
            restore(kept)
            throw error
        }
        let outcome = adopt(result, of: plan)
        if case .saved = outcome {
            do {
                try await finishEditing(deletingDraft: false)
            } catch {
                restore(kept)
                throw error
            }
        }
        return finishResave(fields, outcome, kept: kept)
    }
}
