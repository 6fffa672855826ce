/// Save, cancel, reload and delete.
extension FormSession {
    /// Whether `save()` would write something now.
    public var canSave: Bool {
        whyNoSave == nil && isDirty
    }

    private var whyNoSave: String? {
        switch form.mode {
        case .free: return "\(form.name) is in free mode: each valid change is saved as it is made"
        case .edit where !isEditing: return "\(form.name) is not being edited (beginEditing first)"
        default: return nil
        }
    }

    /// Validates, then, only if nothing fails, writes the changed fields in one
    /// transaction (a new record: every visible stored field) and makes the
    /// current values pristine. A save with nothing dirty writes nothing.
    ///
    /// A new record is validated whole (`validateAll()`). A stored record is
    /// validated as far as it changed (`validateChanges()`): a rule that an
    /// untouched field's stored value already breaks becomes a warning
    /// (`warnings`), which does not stop the save. `saveValidation` can ask
    /// for everything instead (a session bound to a model does).
    ///
    /// - throws: `SessionError` when the mode has no save step now; the backend's
    ///   error when storage fails (the session keeps its state and its draft).
    public func save() throws -> SaveOutcome {
        if let why = whyNoSave { throw SessionError.mode(why) }
        let errors = key == nil || saveValidation == .everything ? validateAll() : validateChanges()
        let hidden = hiddenChanges()
        guard errors.isEmpty && hidden.isEmpty else { return .invalid(errors + hidden) }
        guard key != nil else { return try insertRecord() }
        let dirty = dirtyFields.filter(isVisible)
        guard !dirty.isEmpty else {
            try finishEditing(deletingDraft: true)
            return .unchanged
        }
        return try write(only: dirty)
    }

    /// Changes to fields that are hidden now: a save writes only visible fields,
    /// so such a change is an error (code `hidden`) rather than lost in silence.
    private func hiddenChanges() -> [FieldError] {
        var found: [FieldError] = []
        for field in fields where field.isStored && field.holdsValue && isChanged(field.key)
            && form.isHidden(field, values: current, editing: isEditing) {
            let error = FieldError(field: field.key, code: "hidden",
                                   message: "\(field.label) is hidden, so its change cannot be saved: show it or undo the change")
            setErrors([error], for: field.key)
            found.append(error)
        }
        return found
    }

    /// Runs every check of every visible field and the form rules; returns every
    /// error (and leaves no warnings: everything counts).
    @discardableResult
    public func validateAll() -> [FieldError] {
        validate(changed: Set(fields.lazy.filter(\.holdsValue).map(\.key)))
    }

    /// Validates what a save of a stored record checks: the visible fields that
    /// changed (or hold input that did not parse) and the form rules naming one
    /// of them or no field. What fails on the other fields goes to `warnings`.
    /// Returns the errors.
    ///
    /// ```swift
    /// // email was stored as "not-an-email" by another application
    /// try session.set("city", input: "Kraków")
    /// session.validateChanges()   // []
    /// session.warnings            // [email: Email is not a valid e-mail address]
    /// ```
    @discardableResult
    public func validateChanges() -> [FieldError] {
        validate(changed: Set(fields.lazy.filter(\.holdsValue).map(\.key).filter { self.isChanged($0) || self.inputs[$0] != nil }))
    }

    /// Validates the visible fields through `Form.validate(changed:values:)`;
    /// typed input that did not parse keeps its parse error.
    private func validate(changed: Set<String>) -> [FieldError] {
        let shown = visibleFields
        let visible = values(of: shown)
        let report = form.validate(changed: changed, values: visible, editing: isEditing)
        var found: [String: [FieldError]] = [:]
        var whole: [FieldError] = []
        for error in report.errors {
            if let blamed = error.field, field(blamed) != nil {
                found[blamed, default: []].append(error)
            } else {
                whole.append(error)
            }
        }
        for field in shown where field.holdsValue && changed.contains(field.key) {
            if inputs[field.key] != nil, let parseError = fieldErrors[field.key] { found[field.key] = parseError }
            touched.insert(field.key)
        }
        for field in fields { setErrors(found[field.key] ?? [], for: field.key) }
        if formErrors != whole {
            formErrors = whole
            emit(.validationChanged(field: nil))
        }
        setWarnings(report.warnings)
        return allErrors
    }

    func setWarnings(_ found: [FieldError]) {
        guard warnings != found else { return }
        warnings = found
        emit(.warningsChanged)
    }

    /// Writes `keys` (already validated) against the record as loaded.
    func write(only keys: [String]) throws -> SaveOutcome {
        guard let key else { return try insertRecord() }
        var changes: [String: FieldValue] = [:]
        var baseValues: [String: FieldValue] = [:]
        for field in keys {
            changes[field] = value(field)
            baseValues[field] = pristine[field] ?? .null
        }
        autosaver?.cancelPending()
        let result = try keepingDraftOnFailure {
            try backend.update(form, key: key, changes: changes,
                               base: SaveBase(version: baseVersion, values: baseValues),
                               deletingDraft: autosaver == nil ? nil : draftID)
        }
        switch result {
        case .saved(let record):
            adopt(record, written: Set(keys))
            emit(.saved(changed: keys))
            try finishEditing(deletingDraft: false)
            return .saved(changed: keys, key: record.key)
        case .conflict(let conflicts):
            draftChanged()
            return .conflict(conflicts)
        case .notFound:
            draftChanged()
            return .notFound
        }
    }

    private func insertRecord() throws -> SaveOutcome {
        var stored: [String: FieldValue] = [:]
        for field in visibleFields where field.isStored && field.holdsValue {
            stored[field.key] = value(field.key)
        }
        autosaver?.cancelPending()
        let record = try keepingDraftOnFailure {
            try backend.insert(form, values: stored, deletingDraft: autosaver == nil ? nil : draftID)
        }
        let changed = fields.map(\.key).filter { stored[$0] != nil }
        key = record.key
        adopt(record, written: Set(stored.keys))
        emit(.saved(changed: changed))
        try finishEditing(deletingDraft: false)
        return .saved(changed: changed, key: record.key)
    }

    /// Takes a freshly stored record as pristine; fields the person did not
    /// change take its values too, so a column another writer changed shows up.
    private func adopt(_ record: StoredRecord, written: Set<String>) {
        for (field, stored) in record.values where written.contains(field) || current[field] == pristine[field] {
            current[field] = stored
        }
        pristine = record.values
        baseVersion = record.version
    }

    /// Back to the pristine values: inputs, errors and the draft are dropped,
    /// editing ends. Nothing is written to the record.
    public func cancel() throws {
        if form.mode == .edit && !isEditing {
            throw SessionError.mode("nothing to cancel: \(form.name) is not being edited")
        }
        current = pristine
        inputs = [:]
        touched = []
        for key in Array(fieldErrors.keys) { setErrors([], for: key) }
        formErrors = []
        setWarnings([])
        try finishEditing(deletingDraft: true)
        emit(.cancelled)
    }

    /// Reads the record again. Fields the person made dirty keep their edits,
    /// the others take the stored values; returns the dirty fields that someone
    /// else changed meanwhile (their stored value is now the base).
    ///
    /// - throws: `SessionError` (`.notFound`) when the record is gone.
    @discardableResult
    public func reload() throws -> [FieldConflict] {
        guard let key else { return [] }
        guard let record = try backend.load(form, key: key) else { throw SessionError.notFound(form, key) }
        var conflicts: [FieldConflict] = []
        var changed: [String] = []
        for field in fields where field.holdsValue && field.isStored {
            let k = field.key
            let stored = record.values[k] ?? .null
            let old = pristine[k] ?? .null
            let mine = current[k] ?? .null
            if mine != old {
                if stored != old { conflicts.append(FieldConflict(field: k, base: old, mine: mine, theirs: stored)) }
            } else if stored != mine, inputs[k] == nil {
                current[k] = stored
                changed.append(k)
            }
        }
        pristine = record.values
        baseVersion = record.version
        if !changed.isEmpty { emit(.reloaded(changed: changed)) }
        draftChanged()
        return conflicts
    }

    /// Deletes the record (and this session's draft, in the same transaction).
    ///
    /// - throws: `SessionError` when the mode does not allow it now or the
    ///   record is gone.
    public func delete() throws {
        guard let key else { throw SessionError.mode("nothing to delete: the record was never saved") }
        switch form.mode {
        case .frozen: throw SessionError.mode("\(form.name) is frozen: records cannot be deleted")
        case .edit where !isEditing: throw SessionError.mode("\(form.name) is not being edited (beginEditing first)")
        default: break
        }
        autosaver?.cancelPending()
        let deleted = try keepingDraftOnFailure {
            try backend.delete(form, key: key, deletingDraft: autosaver == nil ? nil : draftID)
        }
        guard deleted else {
            throw SessionError.notFound(form, key)
        }
        isEditing = false
        emit(.deleted)
    }

    /// Writes any pending draft at once. Call when the person leaves the form
    /// (closing, SIGINT, SIGTERM).
    public func close() {
        autosaver?.flush()
    }

    /// Runs a write that deletes the draft in its transaction. The pending draft
    /// was cancelled for it; when storage fails, the unsaved state goes back to
    /// the autosaver, else the last edits before the save would never reach a draft.
    private func keepingDraftOnFailure<T>(_ write: () throws -> T) throws -> T {
        do {
            return try write()
        } catch {
            draftChanged()
            throw error
        }
    }

    private func finishEditing(deletingDraft: Bool) throws {
        if deletingDraft, let autosaver {
            autosaver.cancelPending()
            try draftStore?.deleteDraft(id: draftID)
        }
        // A draft that went to the fallback files while storage failed is saved
        // or cancelled now too: it must not be offered again.
        if autosaver != nil { try? fallbackDrafts?.deleteDraft(id: draftID) }
        if hasUnsavedChanges { draftChanged() }
        if form.mode == .edit && isEditing {
            isEditing = false
            emit(.editingChanged(isEditing: false))
        }
    }
}
