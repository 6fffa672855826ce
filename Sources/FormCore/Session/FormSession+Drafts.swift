import FoundationEssentials

/// What restoring a draft did: the fields it brought back, the fields changed
/// on both sides since the draft's base (for the caller to choose), and the
/// fields the form no longer has.
public struct DraftRestore: Sendable, Hashable {
    public var restored: [String]
    public var conflicts: [FieldConflict]
    public var missingFields: [String]
    /// Secure fields the draft held a value for, left out: a draft never
    /// carries a secret, so one that does was not written by FormStore (issue 20).
    public var droppedSecureFields: [String] = []
    /// The draft was made under another version of the form.
    public var formVersionChanged: Bool
}

/// Drafts: autosaving the unsaved state, and bringing it back.
extension FormSession {
    /// The unsaved state as a draft; secure fields are never part of it.
    public var draftSnapshot: Draft {
        var changed: [String: FieldValue] = [:]
        var raw: [String: String] = [:]
        for k in draftKeys {
            if hasInputs, let input = inputs[k] {
                raw[k] = input
            } else if isChanged(k) {
                changed[k] = current[k] ?? .null
            }
        }
        let now = Date()
        var base = draftBase ?? fields.reduce(into: [:]) { base, field in
            if field.holdsValue && !field.isSecure && field.isStored { base[field.key] = pristineValues[field.key] ?? .null }
        }
        // A conflict of a restored draft not settled yet: the draft's value on its own base, so
        // the draft, written again, still holds it and offers the same choice next time.
        for (k, unsettled) in unsettledDraft where changed[k] == nil && raw[k] == nil {
            if let input = unsettled.input { raw[k] = input } else { changed[k] = unsettled.value ?? .null }
            base[k] = unsettled.base
        }
        var draft = Draft(id: draftID, form: form.name, recordKey: key, formVersion: form.version,
                          base: base, baseVersion: baseVersion, values: changed, inputs: raw,
                          createdAt: draftCreatedAt ?? now, updatedAt: now, owner: owner)
        draft.groups = groupDraft
        return draft
    }

    /// Where the last draft write went when the database could not take it,
    /// with the reason; `nil` while drafts are written normally.
    public var draftFallback: DraftAutosaver.Fallback? { autosaver?.fallback }

    /// A closure that writes the pending draft at once, like `close()`, and
    /// returns where it went when the database could not take it. Unlike the
    /// session it may be called from any thread (a signal handler's queue):
    /// it touches only the autosaver, which is thread-safe, and the latest
    /// unsaved state was handed to it by the edit that made it.
    public func makeDraftFlusher() -> @Sendable () -> DraftAutosaver.Fallback? {
        let autosaver = self.autosaver
        return {
            autosaver?.flush()
            return autosaver?.fallback
        }
    }

    /// A closure that writes a given draft of this session at once (what a
    /// signal handler adds to the unsaved state: an editor document cut
    /// short), from any thread; returns where it went when the database could
    /// not take it. Writes nothing when the session keeps no drafts.
    public func makeDraftWriter() -> @Sendable (Draft) -> DraftAutosaver.Fallback? {
        let autosaver = draftPolicy == .autosave ? self.autosaver : nil
        return { draft in
            autosaver?.schedule(draft)
            autosaver?.flush()
            return autosaver?.fallback
        }
    }

    /// Hands the current unsaved state to the autosaver (coalesced), or drops
    /// the draft when nothing is unsaved any more; as far as `draftPolicy`
    /// keeps drafts (`rejected`: a save was just refused).
    func draftChanged(rejected: Bool = false) {
        guard let autosaver else { return }
        switch draftPolicy {
        case .autosave: break
        case .keepOnReject where rejected: break
        case .keepOnReject, .none: return
        }
        if draftCreatedAt == nil { draftCreatedAt = Date() }
        if hasUnsavedChanges {
            let snapshot = draftSnapshot
            draftBase = snapshot.base
            // A draft holding only secure fields would be empty: nothing to keep.
            if snapshot.values.isEmpty && snapshot.inputs.isEmpty && snapshot.groups == nil {
                autosaver.discard(id: draftID)
            } else {
                draftMayExist = true
                autosaver.schedule(snapshot)
                draftHandedRevision = draftRevision
            }
        } else {
            autosaver.discard(id: draftID)
        }
    }

    /// The state before one field's edit, for `draftChanged(field:since:)`:
    /// whether the autosaver holds all of it.
    var draftBeforeEdit: Bool { draftHandedRevision == draftRevision && draftBase != nil }

    /// `draftChanged()` after an edit of one field that changed nothing but
    /// its value and input (`revision`: the count right after those changes):
    /// when the autosaver held all of the state before the edit (`handed`,
    /// from `draftBeforeEdit`), only that field is handed over, so a keystroke
    /// costs one field, not the form. Anything else changed meanwhile (an
    /// observer's edit, a pristine value) hands over the whole state.
    func draftChanged(field: Field, handed: Bool, revision: Int) {
        guard handed, revision == draftRevision, draftPolicy == .autosave, let autosaver,
              field.holdsValue, !field.isSecure else {
            draftChanged()
            return
        }
        let k = field.key
        let input: String? = hasInputs ? inputs[k] : nil
        // Spelt out: `nil` alone would be the `.null` value (FieldValue takes nil literals).
        var value = Optional<FieldValue>.none
        if input == nil, isChanged(k) { value = .some(current[k] ?? FieldValue.null) }
        guard autosaver.update(field: k, value: value, input: input, at: Date()) else {
            draftChanged()
            return
        }
        draftHandedRevision = draftRevision
    }

    /// Restores a draft over the record as stored now, field by field:
    /// a field unchanged since the draft's base takes the draft's value; a field
    /// the draft did not touch keeps the stored value; a field changed on both
    /// sides is reported as a conflict and keeps the stored value until the
    /// caller sets one. The draft becomes this session's draft.
    ///
    /// - throws: `SessionError` (`.draftMismatch`) for a draft of another form or record.
    @discardableResult
    public func restore(_ draft: Draft) throws -> DraftRestore {
        guard draft.form == form.name, draft.recordKey == key else {
            throw SessionError(reason: .draftMismatch,
                               message: "draft \(draft.id) belongs to \(draft.form) \(draft.recordKey?.description ?? "(new)"), not this session",
                               field: nil)
        }
        if form.mode == .edit && !isEditing {
            isEditing = true
            emit(.editingChanged(isEditing: true))
        }
        var result = DraftRestore(restored: [], conflicts: [], missingFields: [],
                                  formVersionChanged: draft.formVersion != form.version)
        let keys = draft.changedFields
        for k in keys {
            guard let field = field(k), field.holdsValue else {
                result.missingFields.append(k)
                continue
            }
            if field.isSecure {
                result.droppedSecureFields.append(k)
                continue
            }
            let base = draft.base[k] ?? .null
            let stored = pristineValues[k] ?? .null
            let mine = draft.inputs[k].map(FieldValue.text) ?? draft.values[k] ?? .null
            if stored != base && stored != mine && field.isStored {
                result.conflicts.append(FieldConflict(field: k, base: base, mine: mine, theirs: stored))
                unsettledDraft[k] = UnsettledDraftField(base: base, value: draft.values[k], input: draft.inputs[k])
                continue
            }
            // Text kept as typed (it did not parse, or a signal's handler kept
            // it unparsed) is parsed now: when it reads, it is the value.
            if let raw = draft.inputs[k] {
                switch field.parse(raw, in: form) {
                case .success(let value): current[k] = value
                case .failure(let error):
                    inputs[k] = raw
                    setErrors([error], for: k)
                }
            } else {
                current[k] = draft.values[k] ?? .null
            }
            touch(k)
            result.restored.append(k)
            emit(.valueChanged(field: k))
        }
        restoreGroups(draft.groups, into: &result)
        offeredDrafts.removeAll { $0.id == draft.id }
        draftID = draft.id
        draftMayExist = true
        draftCreatedAt = draft.createdAt
        draftChanged()
        return result
    }

    /// Takes the draft's value for a field `restore(_:)` returned as a
    /// conflict (yours over what was stored since): the text as typed when
    /// it did not parse, else the value. In free mode this saves it, as any `set` does.
    @discardableResult
    public func keepDraftValue(_ conflict: FieldConflict, of draft: Draft) throws -> SaveOutcome? {
        // A whole row one side deleted (kept as a new row), or a stored row's cell (`lines[11].amount`).
        if isRowConflict(conflict) {
            try settleRowConflict(conflict, keepMine: true)
            return nil
        }
        guard form.field(conflict.field) != nil else { return try set(conflicting: conflict.field, value: conflict.mine) }
        unsettledDraft[conflict.field] = nil
        if let raw = draft.inputs[conflict.field] { return try set(conflict.field, input: raw) }
        return try set(conflict.field, value: conflict.mine)
    }

    /// Takes the stored value for a field `restore(_:)` returned as a
    /// conflict (theirs over the draft's): the session holds it already, and
    /// the draft no longer keeps the draft's value for it.
    public func keepStoredValue(_ conflict: FieldConflict) {
        guard unsettledDraft.removeValue(forKey: conflict.field) != nil else { return }
        draftChanged()
    }

    /// Deletes a draft that was offered and not wanted.
    public func discard(_ draft: Draft) throws {
        try draftStore?.deleteDraft(id: draft.id)
        try fallbackDrafts?.deleteDraft(id: draft.id)
        offeredDrafts.removeAll { $0.id == draft.id }
    }

    /// Resumes a draft of a new, never saved record.
    public static func resume(_ draft: Draft, form: Form, backend: any FormBackend,
                              drafts: (any DraftStore)?, draftPolicy: DraftPolicy = .autosave,
                              autosave: DraftAutosaver.Policy = .init()) throws -> (FormSession, DraftRestore) {
        let session = FormSession.new(form, backend: backend, drafts: drafts, owner: draft.owner,
                                      draftPolicy: draftPolicy, autosave: autosave)
        let restore = try session.restore(draft)
        return (session, restore)
    }
}
