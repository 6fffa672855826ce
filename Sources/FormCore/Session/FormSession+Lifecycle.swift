import FoundationEssentials
import Glibc

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
        switch try prepareSave() {
        case .finished(let outcome):
            return outcome
        case .unchanged:
            try finishEditing(deletingDraft: true)
            return .unchanged
        case .insert(let values):
            return try insertRecord(values)
        case .update(let plan):
            return try write(plan)
        }
    }

    /// What a save does once validated: the part of `save()` that needs no storage.
    enum SaveStep {
        /// Done without storage (`.invalid`).
        case finished(SaveOutcome)
        /// Nothing dirty.
        case unchanged
        case insert([String: FieldValue])
        case update(UpdatePlan)
    }

    /// The changed fields of a stored record and what they are checked against.
    struct UpdatePlan {
        var key: RecordKey
        var fields: [String]
        var changes: [String: FieldValue]
        var base: SaveBase
        /// The groups whose rows change.
        var groups: [String] = []
        /// Those groups' rows as loaded, for undo (`SavedRows`).
        var rowsBefore: [String: [[String: FieldValue]]] = [:]
    }

    func prepareSave() throws -> SaveStep {
        if let why = whyNoSave { throw SessionError.mode(why) }
        validateGroups()
        guard let key else {
            let errors = validateAll() + hiddenChanges()
            guard errors.isEmpty else { return invalid(errors) }
            return .insert(insertValues)
        }
        // The changed slots, found once: what the save validates and what it writes.
        let changed = changedSlots()
        let revision = draftRevision
        let errors = saveValidation == .everything ? validateAll() : validateChanges(changedSlots: changed)
        let hidden = hiddenChanges()
        guard errors.isEmpty && hidden.isEmpty else { return invalid(errors + hidden) }
        // An observer of the validation may have changed a value meanwhile.
        let dirty = (revision == draftRevision ? dirtyFields(changedSlots: changed) : dirtyFields).filter(isVisible)
        guard !dirty.isEmpty || areGroupsDirty else { return .unchanged }
        return .update(updatePlan(dirty, key: key))
    }

    /// A save refused for `errors`, the unsaved state kept as a draft.
    private func invalid(_ errors: [FieldError]) -> SaveStep {
        draftChanged(rejected: true)
        return .finished(.invalid(errors))
    }

    /// Changes to fields that are hidden now: a save writes only visible fields,
    /// so such a change is an error (code `hidden`) rather than lost in silence.
    private func hiddenChanges() -> [FieldError] {
        // Without conditions nothing is ever hidden: no walk over the fields.
        guard compiled.hasHiddenConditions else { return [] }
        var found: [FieldError] = []
        for field in fields where field.isStored && field.holdsValue && isChanged(field.key)
            && pipeline.hiddenRefusal(field, values: current, editing: isEditing) != nil {
            let error = pipeline.hiddenChangeError(field)
            setErrors([error], for: field.key)
            found.append(error)
        }
        return found
    }

    /// Runs every check of every visible field and the form rules; returns every
    /// error (and leaves no warnings: everything counts).
    @discardableResult
    public func validateAll() -> [FieldError] {
        validate(changed: Set(compiled.valueKeys))
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
        validateChanges(changedSlots: changedSlots())
    }

    /// `validateChanges()` of the slots `changedSlots()` found.
    private func validateChanges(changedSlots slots: [Int]) -> [FieldError] {
        // The layout's slots are the fields holding a value; the changed ones
        // are found from the edited keys, not by walking the form.
        let keys = compiled.layout.keys
        var changed = Set(slots.map { keys[$0] })
        for key in inputs.keys where compiled.layout.position(of: key) != nil { changed.insert(key) }
        // A field the changes show is checked as changed (`RecordPipeline.revealedKeys`).
        // Only conditions show fields: without them the pristine values are
        // not built into a dictionary just to find nothing (issue 14: on a
        // 200-field form that was 60k instructions, a sixth of a save).
        if key != nil, !slots.isEmpty, pipeline.hasConditions {
            changed.formUnion(pipeline.revealedKeys(pristine: pristine, values: current, editing: isEditing))
        }
        // A value put back as the column held it (`restore`) is checked as stored values are:
        // what it breaks is a warning, as it was before the change it reverts.
        if let held = extrasIfMade?.heldValues, !held.isEmpty {
            for (key, restored) in held where value(key) == restored { changed.remove(key) }
        }
        return validate(changed: changed)
    }

    /// Validates the visible fields through `Form.validate(changed:values:)`;
    /// typed input that did not parse keeps its parse error.
    private func validate(changed: Set<String>) -> [FieldError] {
        // The session's visibility, kept between changes, is the pipeline's to use.
        let hidden = visibility
        // The changed fields in form order: the errors walk them, not the whole form.
        let changedFields = changed.compactMap(compiled.position(of:)).sorted().map { fields[$0] }
        let check = pipeline.check(fields, changed: changed, changedFields: changedFields, values: current,
                                   editing: isEditing, visibility: hidden)
        var found: [String: [FieldError]] = [:]
        var whole: [FieldError] = []
        for error in check.errors() {
            if let blamed = error.field, field(blamed) != nil {
                found[blamed, default: []].append(error)
            } else {
                whole.append(error)
            }
        }
        // `changed` holds only keys of fields that hold a value: walking its
        // keys, not the fields, copies no `Field`.
        for key in changed where !hidden.isHidden(key) {
            if inputs[key] != nil, let parseError = fieldErrors[key] { found[key] = parseError }
            touch(key)
        }
        // Nothing found and nothing shown: no field's errors change, and none need looking up.
        if !found.isEmpty || hasFieldErrors {
            for index in fields.indices { setErrors(found[fields[index].key] ?? [], for: fields[index].key) }
        }
        if formErrors != whole {
            formErrors = whole
            emit(.validationChanged(field: nil))
        }
        // Nobody hears `.warningsChanged`: the warnings wait until they are read.
        if !hasObservers {
            // Handed over, not copied: a check holds the form, its fields and the values.
            let ofCurrent = check.valuesAreTheGiven
            warningState.deferTo(consume check, ofCurrent: ofCurrent)
        } else {
            setWarnings(check.warnings())
        }
        return allErrors
    }

    func setWarnings(_ found: [FieldError]) {
        guard hasObservers else { return warningState.set(found) }
        guard warnings != found else { return }
        warnings = found
        emit(.warningsChanged)
    }

    /// Writes `keys` (already validated) against the record as loaded.
    func write(only keys: [String]) throws -> SaveOutcome {
        guard let key else { return try insertRecord(insertValues) }
        return try write(updatePlan(keys, key: key))
    }

    func updatePlan(_ keys: [String], key: RecordKey) -> UpdatePlan {
        var changes: [String: FieldValue] = [:]
        var baseValues: [String: FieldValue] = [:]
        for field in keys {
            changes[field] = value(field)
            baseValues[field] = pristineValues[field] ?? .null
        }
        // Free mode saves one change at a time: a field's save writes no rows.
        let groups = form.mode == .free && !keys.isEmpty ? [] : dirtyGroups
        let storedForms = extrasIfMade?.storedForms.filter { changes[$0.key] != nil } ?? [:]
        return UpdatePlan(key: key, fields: keys, changes: changes,
                          base: SaveBase(version: baseVersion, values: baseValues, storedForms: storedForms),
                          groups: groups, rowsBefore: rowsSnapshot(groups))
    }

    private func write(_ plan: UpdatePlan) throws -> SaveOutcome {
        autosaver?.cancelPending()
        let result = try keepingDraftOnFailure {
            try updateRecord(plan)
        }
        let outcome = adopt(result, of: plan)
        if case .saved = outcome { try finishEditing(deletingDraft: false) }
        return outcome
    }

    /// Takes what the backend's update did: the stored record, or a rejection
    /// (which keeps the unsaved state as a draft).
    func adopt(_ result: UpdateResult, of plan: UpdatePlan) -> SaveOutcome {
        switch result {
        case .saved(let record):
            // A field saved is settled, whichever side the save wrote.
            if !unsettledDraft.isEmpty { for field in plan.fields { unsettledDraft[field] = nil } }
            adopt(record, written: plan.fields)
            noteSave(plan, forms: record.writtenForms)
            emit(.saved(changed: plan.fields + plan.groups))
            return .saved(changed: plan.fields + plan.groups, key: record.key)
        case .conflict(let conflicts):
            draftChanged(rejected: true)
            return .conflict(form.markingSecure(conflicts))
        case .notFound:
            draftChanged(rejected: true)
            return .notFound
        }
    }

    /// A new record's values: every visible stored field.
    var insertValues: [String: FieldValue] {
        pipeline.insertValues(current, editing: isEditing)
    }

    private func insertRecord(_ stored: [String: FieldValue]) throws -> SaveOutcome {
        autosaver?.cancelPending()
        let record = try keepingDraftOnFailure {
            try insertRecord(values: stored)
        }
        let outcome = adoptInserted(record, values: stored)
        try finishEditing(deletingDraft: false)
        return outcome
    }

    func adoptInserted(_ record: StoredRecord, values stored: [String: FieldValue]) -> SaveOutcome {
        // The fields the new record was given: not those left empty (a generated column, a key SQLite fills in).
        let changed = fields.map(\.key).filter { stored[$0].map { $0 != .null } ?? false }
            + form.groups.map(\.key).filter { !rows($0).isEmpty }
        key = record.key
        adopt(record, written: Array(stored.keys))
        emit(.saved(changed: changed))
        return .saved(changed: changed, key: record.key)
    }

    /// Takes a freshly stored record as pristine; fields the person did not
    /// change take its values too, so a column another writer changed shows up.
    ///
    /// Walked by slot: a field whose stored value is the pristine one needs
    /// no look at `current` (a person's edit of it stays), so only the written
    /// fields and those another writer changed cost a lookup.
    ///
    /// Edits stay tracked (`editedSlots`): a field whose pristine value moves
    /// either takes it here (and is noted) or was already edited.
    private func adopt(_ record: StoredRecord, written: [String]) {
        let stored = record.slotValues.laidOut(by: compiled.layout)
        trackingEdits(written) { session in
            for field in written {
                // Named to the deferred warnings, not changed through `current`'s
                // accessor, which would copy the values they saw (`SessionWarnings`).
                if let value = stored[field] { _ = session.updateCurrent(value, forKey: field) }
            }
            let keys = session.compiled.layout.keys
            let changed = Self.slotsChanged(stored.slots, from: session.pristineValues.slots)
            for slot in changed {
                guard let value = stored.slots[slot] else { continue }
                // A written field already holds its stored value, which is not the pristine one.
                if session.current[keys[slot]] == session.pristineValues.slots[slot] {
                    session.setCurrent(value, for: keys[slot])
                }
            }
            for (field, value) in stored.others
                where written.contains(field) || session.current[field] == session.pristineValues.others[field] {
                session.setCurrent(value, for: field)
            }
            // The slots that changed are written into the session's own record,
            // which is not the stored one: the backend may keep that one and,
            // held only there, write the next save into it in place
            // (`SavedRow`); sharing it made every save copy a wide record.
            if stored.layout === session.pristineValues.layout {
                for slot in changed { session.pristineValues.slots[slot] = stored.slots[slot] }
                session.pristineValues.others = stored.others
            } else {
                session.pristineValues = stored
            }
        }
        pruneEditedSlots()
        baseVersion = record.version
    }

    /// The slots where `stored` and `pristine` (of the same layout) hold different values.
    ///
    /// A slot whose two values are the same bytes (the same number, or the
    /// same string's storage) is unchanged without a comparison: comparing
    /// copied both values of every slot, and on a wide form nearly every
    /// slot is the pristine value, most often the very same (issue 14).
    static func slotsChanged(_ stored: [FieldValue?], from pristine: [FieldValue?]) -> [Int] {
        stored.withUnsafeBufferPointer { stored in
            pristine.withUnsafeBufferPointer { pristine in
                var changed: [Int] = []
                let size = MemoryLayout<FieldValue?>.size
                for slot in stored.indices {
                    if slot < pristine.count {
                        let isSameBytes = memcmp(UnsafeRawPointer(stored.baseAddress! + slot),
                                                 UnsafeRawPointer(pristine.baseAddress! + slot), size) == 0
                        if isSameBytes || stored[slot] == pristine[slot] { continue }
                    }
                    changed.append(slot)
                }
                return changed
            }
        }
    }

    /// Back to the pristine values: inputs, errors and the draft are dropped,
    /// editing ends. Nothing is written to the record.
    public func cancel() throws {
        try revert()
        try finishEditing(deletingDraft: true)
        emit(.cancelled)
    }

    /// The part of `cancel()` that needs no storage.
    func revert() throws {
        if form.mode == .edit && !isEditing {
            throw SessionError.mode("nothing to cancel: \(form.name) is not being edited")
        }
        trackingEdits([]) { $0.current = $0.pristine }
        if !unsettledDraft.isEmpty { unsettledDraft = [:] }
        editedSlots = PositionSet(count: compiled.layout.keys.count)
        revertGroups()
        inputs = [:]
        touched = []
        undoSteps = UndoSteps()
        for key in Array(fieldErrors.keys) { setErrors([], for: key) }
        formErrors = []
        setWarnings([])
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
        return take(reloaded: record)
    }

    /// The part of `reload()` that needs no storage.
    func take(reloaded record: StoredRecord) -> [FieldConflict] {
        var conflicts: [FieldConflict] = []
        var changed: [String] = []
        for field in fields where field.holdsValue && field.isStored {
            let k = field.key
            let stored = record.slotValues[k] ?? .null
            let old = pristineValues[k] ?? .null
            let mine = current[k] ?? .null
            if mine != old {
                if stored != old { conflicts.append(FieldConflict(field: k, base: old, mine: mine, theirs: stored)) }
            } else if stored != mine, inputs[k] == nil {
                current[k] = stored
                changed.append(k)
            }
        }
        pristineValues = record.slotValues.laidOut(by: compiled.layout)
        baseVersion = record.version
        takeGroups(reloaded: record.groups)
        if !changed.isEmpty { emit(.reloaded(changed: changed)) }
        draftChanged()
        return conflicts
    }

    /// Deletes the record (and this session's draft, in the same transaction).
    ///
    /// - throws: `SessionError` when the mode does not allow it now or the
    ///   record is gone.
    public func delete() throws {
        let key = try keyToDelete()
        autosaver?.cancelPending()
        let deleted = try keepingDraftOnFailure {
            try backend.delete(form, key: key, deletingDraft: draftDeletedByWrite)
        }
        guard deleted else {
            throw SessionError.notFound(form, key)
        }
        if let id = draftLeftAfterWrite { try draftStore?.deleteDraft(id: id) }
        isEditing = false
        emit(.deleted)
    }

    /// The key `delete()` deletes, once the mode allows it.
    func keyToDelete() throws -> RecordKey {
        guard let key else { throw SessionError.mode("nothing to delete: the record was never saved") }
        switch form.mode {
        case .frozen: throw SessionError.mode("\(form.name) is frozen: records cannot be deleted")
        case .edit where !isEditing: throw SessionError.mode("\(form.name) is not being edited (beginEditing first)")
        default: break
        }
        return key
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
            draftChanged(rejected: true)
            throw error
        }
    }

    /// The draft id a write deletes in its own transaction: only when the
    /// draft store is the backend's own table, and a draft may exist.
    var draftDeletedByWrite: String? {
        guard autosaver != nil, draftMayExist, draftStore?.deletesDrafts(with: backend) == true else { return nil }
        return draftID
    }

    /// The draft id a successful write left in a separate draft store (a
    /// `FileDraftStore`, another database): deleted right after the write.
    var draftLeftAfterWrite: String? {
        guard autosaver != nil, draftMayExist, draftStore?.deletesDrafts(with: backend) != true else { return nil }
        return draftID
    }

    /// The draft id a cancel, or a save with nothing to write, deletes.
    private func draftToDelete(_ deletingDraft: Bool) -> String? {
        deletingDraft ? (autosaver != nil && draftMayExist ? draftID : nil) : draftLeftAfterWrite
    }

    func finishEditing(deletingDraft: Bool) throws {
        if let id = draftToDelete(deletingDraft) {
            autosaver?.cancelPending()
            try draftStore?.deleteDraft(id: id)
        }
        endEditing()
    }

    nonisolated(nonsending)
    func finishEditing(deletingDraft: Bool) async throws {
        if let id = draftToDelete(deletingDraft) {
            await autosaver?.cancelPending()
            try await draftStore?.deleteDraft(id: id)
        }
        endEditing()
    }

    private func endEditing() {
        // A draft that went to the fallback files while storage failed is saved
        // or cancelled now too: it must not be offered again.
        if autosaver != nil && draftMayExist { try? fallbackDrafts?.deleteDraft(id: draftID) }
        if hasUnsavedChanges { draftChanged() }
        if form.mode == .edit && isEditing {
            isEditing = false
            emit(.editingChanged(isEditing: false))
        }
    }
}
