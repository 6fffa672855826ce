import FormCore
import FormStorage

/// Drafts kept in the database's `formstore_drafts` table.
extension StorageWorkspace {
    /// Drafts not yet past their lifetime (expired ones are deleted by the next edit).
    func drafts(form: String?) throws -> [Draft] {
        let expiry = DraftAutosaver.Policy().expiryDate
        return try store().drafts(form: form).filter { $0.updatedAt >= expiry }
    }

    /// The draft with an id, or the newest draft of a record.
    ///
    /// - throws: `CLIError.notFound` when there is none.
    func draft(_ reference: DraftReference) throws -> Draft {
        switch reference {
        case .id(let id):
            guard let draft = try store().draft(id: id) else { throw CLIError.notFound("no draft with id '\(id)'") }
            return draft
        case .record(let name, let key):
            let form = try form(named: name)
            var recordKey = try recordKey(key, of: form)
            // Drafts are filed under the key as stored: read it back when the record exists.
            if let record = try store().load(form, key: recordKey) { recordKey = record.key }
            guard let draft = try store().drafts(form: form.name, key: recordKey).first else {
                throw CLIError.notFound("no draft of \(form.name) \(key.text)")
            }
            return draft
        }
    }

    /// Restores the draft over its record as stored now and saves. A field
    /// changed both in the draft and in the record since is a conflict
    /// (exit 75) and nothing is saved; invalid values fail validation (65).
    /// In both cases the draft is kept.
    func restoreDraft(_ reference: DraftReference) throws -> StoredRecord {
        let draft = try draft(reference)
        let store = try store()
        let form = try form(named: draft.form)
        let subject = draft.recordKey?.description
        // No draft store for this session: restoring would rewrite the draft
        // without the conflicting fields, and a failed save must leave it whole.
        let session: FormSession
        if let key = draft.recordKey {
            session = try FormSession.open(withSaveStep(form), key: key, backend: store, drafts: nil)
        } else {
            session = FormSession.new(withSaveStep(form), backend: store, drafts: nil)
        }
        let restored = try session.restore(draft)
        if !restored.conflicts.isEmpty {
            throw RecordRejected(form: form, key: subject, reason: .conflict(restored.conflicts))
        }
        for field in restored.restored {
            if let why = session.whyNotEditable(field) {
                throw CLIError.validation("cannot restore the draft: \(field) \(why)")
            }
        }
        let outcome = try session.save()
        switch outcome {
        case .saved, .unchanged:
            try store.deleteDraft(id: draft.id)
            guard let key = session.key else { throw CLIError.failure("internal: the restored record has no key") }
            return StoredRecord(key: key, values: session.pristine, version: session.baseVersion)
        case .invalid(let errors):
            throw RecordRejected(form: form, key: subject, reason: .invalid(errors))
        case .conflict(let conflicts):
            throw RecordRejected(form: form, key: subject, reason: .conflict(conflicts))
        case .notFound:
            throw RecordRejected(form: form, key: subject, reason: .notFound)
        }
    }

    func discardDraft(_ reference: DraftReference) throws {
        let draft = try draft(reference)
        try store().deleteDraft(id: draft.id)
    }
}
