/// The async API of a session: the same steps as the blocking calls, with every
/// storage call awaited through the backend's async API, so a backend over a
/// database (`FormStore`) runs SQLite on its own threads while the task waits
/// without holding one of the cooperative pool's. Cancelling the task stops a
/// save that waits for a lock: it throws `CancellationError` and writes nothing.
///
/// ```swift
/// let session = try await FormSession.open(form, key: RecordKey("id", 7), backend: store,
///                                          drafts: store, owner: userID, draftPolicy: .none)
/// try session.set("title", input: body.title)
/// switch try await session.save() {
/// case .saved: return .ok
/// case .invalid(let errors): return .unprocessable(errors)
/// default: return .conflict
/// }
/// ```
///
/// The methods run in their caller's isolation (`nonisolated(nonsending)`):
/// a session kept by an actor is used from that actor, and one made in a task
/// stays in it. A session is not `Sendable`; see the README ("In a service")
/// for sessions in concurrent code.
extension FormSession {
    /// Opens the stored record with `key`, offering the drafts `owner` has of it
    /// (`open(_:key:backend:drafts:owner:draftPolicy:autosave:)`, awaited).
    ///
    /// - throws: `FormDefinitionError` when the form's definition has a mistake;
    ///   `SessionError` (`.notFound`); the backend's error; `CancellationError`.
    nonisolated(nonsending)
    public static func open(_ form: Form, key: RecordKey, backend: any FormBackend,
                            drafts: (any DraftStore)? = nil, owner: String? = nil,
                            draftPolicy: DraftPolicy = .autosave,
                            autosave: DraftAutosaver.Policy = .init()) async throws -> FormSession {
        let compiled = try checkedCompile(form)
        guard let record = try await backend.load(form, key: key) else {
            throw SessionError.notFound(form, key)
        }
        let session = FormSession(opened: record, form: form, compiled: compiled, backend: backend, drafts: drafts,
                                  owner: owner, draftPolicy: draftPolicy, autosave: autosave)
        if let drafts { session.offer(try await drafts.drafts(form: form.name, key: record.key, owner: owner)) }
        return session
    }

    /// `save()`, awaited: validates, then writes the changed fields in one
    /// transaction with the deletion of the session's draft.
    ///
    /// - throws: `SessionError` when the mode has no save step now; the
    ///   backend's error; `CancellationError` when the task was cancelled
    ///   before the write committed (nothing was written; the session keeps its state).
    nonisolated(nonsending)
    public func save() async throws -> SaveOutcome {
        switch try prepareSave() {
        case .finished(let outcome):
            return outcome
        case .unchanged:
            try await finishEditing(deletingDraft: true)
            return .unchanged
        case .insert(let values):
            await autosaver?.cancelPending()
            let record: StoredRecord
            do {
                record = try await insertRecord(values: values)
            } catch {
                throw keepingDraft(after: error)
            }
            let outcome = adoptInserted(record, values: values)
            try await finishEditing(deletingDraft: false)
            return outcome
        case .update(let plan):
            await autosaver?.cancelPending()
            let result: UpdateResult
            do {
                result = try await updateRecord(plan)
            } catch {
                throw keepingDraft(after: error)
            }
            let outcome = adopt(result, of: plan)
            if case .saved = outcome { try await finishEditing(deletingDraft: false) }
            return outcome
        }
    }

    /// `cancel()`, awaited: back to the pristine values, the draft deleted.
    nonisolated(nonsending)
    public func cancel() async throws {
        try revert()
        try await finishEditing(deletingDraft: true)
        emit(.cancelled)
    }

    /// `reload()`, awaited.
    ///
    /// - throws: `SessionError` (`.notFound`) when the record is gone; the backend's error.
    @discardableResult
    nonisolated(nonsending)
    public func reload() async throws -> [FieldConflict] {
        guard let key else { return [] }
        guard let record = try await backend.load(form, key: key) else { throw SessionError.notFound(form, key) }
        return take(reloaded: record)
    }

    /// `delete()`, awaited: deletes the record and the session's draft.
    nonisolated(nonsending)
    public func delete() async throws {
        let key = try keyToDelete()
        await autosaver?.cancelPending()
        let deleted: Bool
        do {
            deleted = try await backend.delete(form, key: key, deletingDraft: draftDeletedByWrite)
        } catch {
            throw keepingDraft(after: error)
        }
        guard deleted else { throw SessionError.notFound(form, key) }
        if let id = draftLeftAfterWrite { try await draftStore?.deleteDraft(id: id) }
        isEditing = false
        emit(.deleted)
    }

    /// `close()`, awaited: writes any pending draft without blocking the
    /// task's thread. Call it before a session with drafts is dropped: the
    /// session's `deinit` flushes too, but blocking.
    nonisolated(nonsending)
    public func close() async {
        await autosaver?.flush()
    }

    /// `discard(_:)`, awaited: deletes a draft that was offered and not wanted.
    nonisolated(nonsending)
    public func discard(_ draft: Draft) async throws {
        try await draftStore?.deleteDraft(id: draft.id)
        try await fallbackDrafts?.deleteDraft(id: draft.id)
        offeredDrafts.removeAll { $0.id == draft.id }
    }

    /// A write failed (or was cancelled): the unsaved state goes back to the
    /// autosaver, as in the blocking calls.
    private func keepingDraft(after error: any Error) -> any Error {
        draftChanged(rejected: true)
        return error
    }
}
