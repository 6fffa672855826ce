import FormCore
import FormStorage
import FormStoragePostgres
import FoundationEssentials

/// Drafts kept in `formstore_drafts`: in the database when `init` was run on
/// it, else in its sidecar (see `FormStore.sidecar`).
extension StorageWorkspace {
    /// The user's drafts not yet past their lifetime (expired ones are deleted
    /// by the next edit); another user's drafts are not listed. Drafts kept
    /// before drafts had owners are listed too, so nothing typed then is lost.
    func drafts(form: String?) throws -> [Draft] {
        let expiry = DraftAutosaver.Policy().expiryDate
        var found: [Draft]
        do {
            found = try fallenDrafts(form: form)
            if try keepsDrafts() {
                found += try store().drafts(form: form, owner: DraftOwner.current)
                if DraftOwner.current != nil { found += try store().drafts(form: form, owner: nil) }
            }
        } catch let error as DatabaseError where Self.leavesDraftsApart(error) {
            found = try keptApart(because: error).filter { form == nil || $0.form == form }
        }
        return Draft.newestCopies(found.filter { $0.updatedAt >= expiry })
    }

    /// Whether the database failed in a way its sidecar and the fallback
    /// files do not share: damaged, not a database, locked by another process.
    static func leavesDraftsApart(_ error: DatabaseError) -> Bool {
        error.isCorrupt || error.isBusy || error.resultCode == .SQLITE_CANTOPEN
    }

    /// The user's drafts of this SQLite database kept apart from it (its
    /// sidecar, the fallback files), read without it, said on stderr:
    /// what was typed stays within reach while the database cannot be
    /// opened. Rethrows `error` where there is nothing apart from it
    /// (PostgreSQL, a database `init` ran on keeps its drafts inside).
    private func keptApart(because error: DatabaseError) throws -> [Draft] {
        guard !GlobalOptions.isPostgresURL(databasePath), let sidecar = Sidecar(database: databasePath) else { throw error }
        let scope = Sidecar.draftScope(of: databasePath)
        let files = ((try? FileDraftStore.standard.drafts(form: nil)) ?? []).filter { $0.database == scope }
        let kept = (try sidecar.keptDrafts() + files).filter { $0.owner == DraftOwner.current || $0.owner == nil }
        guard sidecar.exists || !files.isEmpty else { throw error }
        warnings?.write("formstore: warning: \(CLIError.classifying(error, databasePath: globals.shownDatabase).message); "
                        + "its drafts are read from \(sidecar.path) and \(FileDraftStore.standard.directory.path) alone\n")
        return kept
    }

    /// The user's drafts of this database kept in the fallback files, where
    /// an edit put them when the database could not take them (locked, read-only).
    private func fallenDrafts(form: String?) throws -> [Draft] {
        let store = try store()
        return ((try? FileDraftStore.standard.drafts(form: form)) ?? []).filter {
            store.owns($0) && ($0.owner == DraftOwner.current || $0.owner == nil)
        }
    }

    /// The draft with an id, or the newest draft of a record.
    ///
    /// - throws: `CLIError.notFound` when there is none.
    /// A draft holding a secure field's value (one FormStore did not write)
    /// has that value dropped, with a warning on stderr.
    func draft(_ reference: DraftReference) throws -> Draft {
        let draft = try storedDraft(reference)
        guard let form = try? form(named: draft.form) else { return draft }
        let secure = form.fields.filter(\.isSecure).map(\.key)
            .filter { draft.values[$0] != nil || draft.inputs[$0] != nil || draft.base[$0] != nil }
        guard !secure.isEmpty else { return draft }
        warnings?.write("Warning: " + Draft.droppedSecureWarning(secure, in: form) + "\n")
        var checked = draft
        for key in secure {
            checked.values[key] = nil
            checked.inputs[key] = nil
            checked.base[key] = nil
        }
        return checked
    }

    /// False for a PostgreSQL database nobody ran `init` or `edit` on: it has
    /// no draft table, and so no drafts (SQLite's sidecar answers for itself).
    private func keepsDrafts() throws -> Bool {
        guard let store = try store() as? PostgresFormStore else { return true }
        return try store.table("formstore_drafts") != nil
    }

    /// The draft in the database's store, else in the fallback files.
    private func storedDraft(_ reference: DraftReference) throws -> Draft {
        let keeps: Bool
        do { keeps = try keepsDrafts() } catch let error as DatabaseError where Self.leavesDraftsApart(error) { keeps = false }
        switch reference {
        case .id(let id):
            // Kept in both places, the newest copy is the draft: an autosave that went to the
            // fallback files while the store could not take it came after the store's copy.
            let copies: [Draft]
            do {
                copies = try [keeps ? store().draft(id: id) : nil].compactMap { $0 } + fallenDrafts(form: nil).filter { $0.id == id }
            } catch let error as DatabaseError where Self.leavesDraftsApart(error) {
                copies = try keptApart(because: error).filter { $0.id == id }
            }
            guard let draft = Draft.newestCopies(copies).first else { throw CLIError.notFound("no draft with id '\(id)'") }
            return draft
        case .record(let name, let key):
            let form = try form(named: name)
            var recordKey = try recordKey(key, of: form)
            // Drafts are filed under the key as stored: read it back when the record exists.
            if let record = try store().load(form, key: recordKey) { recordKey = record.key }
            let found = try (keeps ? store().drafts(form: form.name, key: recordKey, owner: DraftOwner.current) : [])
                + fallenDrafts(form: form.name).filter { $0.recordKey == recordKey }
            guard let draft = found.max(by: { $0.updatedAt < $1.updatedAt }) else {
                throw CLIError.notFound("no draft of \(form.name) \(key.text)")
            }
            return draft
        }
    }

    /// The record a draft was made of, as stored now; `nil` for a draft of a
    /// new record, or when the record is gone.
    func storedRecord(for draft: Draft) throws -> StoredRecord? {
        guard let key = draft.recordKey else { return nil }
        // A draft holding child rows is read with them, as `restoreDraft` saves them.
        return try store().load(form(named: draft.form, children: !(draft.groups ?? [:]).isEmpty), key: key)
    }

    /// Restores the draft over its record as stored now and saves. A field
    /// changed both in the draft and in the record since is a conflict: it
    /// takes the side `choice` gives it, and without one nothing is saved
    /// (exit 75); invalid values fail validation (65). The save deletes the
    /// draft in its own transaction (the sidecar's table included); when it
    /// fails, the draft is kept whole.
    func restoreDraft(_ reference: DraftReference, choosing choice: ConflictChoice) throws -> StoredRecord {
        let draft = try draft(reference)
        let store = try store()
        // A draft holding child rows (kept by `edit --children`) restores them too.
        let form = try form(named: draft.form, children: !(draft.groups ?? [:]).isEmpty)
        let subject = draft.recordKey?.typedText
        // A field the draft holds, a group whose rows it holds, or one of their rows' cells (`lines[10].amount`).
        let groups = Set((draft.groups ?? [:]).keys)
        for field in choice.fields.keys where draft.values[field] == nil && draft.inputs[field] == nil
            && !groups.contains(String(field.prefix { $0 != "[" })) {
            throw CLIError.usage("--keep-field \(field): the draft has no field '\(field)'")
        }
        let drafts = DiscardingDraftStore()
        let policy = DraftAutosaver.Policy(fallback: nil)
        let session: FormSession
        if let key = draft.recordKey {
            session = try FormSession.open(withSaveStep(form), key: key, backend: store, drafts: drafts, autosave: policy)
        } else {
            session = FormSession.new(withSaveStep(form), backend: store, drafts: drafts, autosave: policy)
        }
        session.attribution = .command
        let restored = try session.restore(draft)
        var unsettled: [FieldConflict] = []
        var kept = restored.restored
        // A row's cell or a row named with `--keep-field` must be one of the conflicts (a group's
        // name may settle none): else a misspelt path would be passed over for `--keep`'s side.
        for field in choice.fields.keys where field.contains("[") && !restored.conflicts.contains(where: { $0.field == field }) {
            let named = restored.conflicts.map(\.field).filter { $0.contains("[") }
            throw CLIError.usage("--keep-field \(field): no conflict of the draft is named so"
                                 + (named.isEmpty ? "" : " (its rows' conflicts: \(named.joined(separator: ", ")))"))
        }
        for conflict in restored.conflicts {
            switch choice.side(for: conflict.field) {
            case .mine?:
                kept.append(conflict.field)
                try session.keepDraftValue(conflict, of: draft)
            case .theirs?:
                session.keepStoredValue(conflict)  // the session holds the stored value already
            case nil:
                unsettled.append(conflict)
            }
        }
        if !unsettled.isEmpty {
            throw CLIError.classifying(RecordRejected(form: form, key: subject, reason: .conflict(unsettled)))
                .adding(details: ["keep one side with --keep mine|theirs, or per field --keep-field FIELD=mine|theirs"])
        }
        // A row's cell (`line[10].item`) is checked by the save, with its row.
        for field in kept where form.field(field) != nil {
            if let why = session.whyNotEditable(field) {
                throw CLIError.validation("cannot restore the draft: \(field) \(why)")
            }
        }
        let outcome = try session.saveKeepingSecretsOut()
        switch outcome {
        case .saved, .unchanged:
            // Nothing to save wrote nothing, so there was no transaction to delete the draft in.
            if case .unchanged = outcome { try store.deleteDraft(id: draft.id) }
            // A draft from the fallback files is gone with its save too.
            try FileDraftStore.standard.deleteDraft(id: draft.id)
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

    /// Deletes the draft wherever it is kept: the database's store and the fallback files.
    func discardDraft(_ reference: DraftReference) throws {
        let draft = try storedDraft(reference)
        if try keepsDrafts() { try store().deleteDraft(id: draft.id) }
        try FileDraftStore.standard.deleteDraft(id: draft.id)
    }
}

extension Draft {
    /// Why a draft's secure values were left out, naming the fields.
    static func droppedSecureWarning(_ keys: [String], in form: Form) -> String {
        let labels = keys.map { FieldDisplay.label($0, in: form) }.joined(separator: ", ")
        return "the draft held a value for the secure field(s) \(labels), left out: "
            + "FormStore never keeps secrets in drafts, so this draft was written by something else"
    }
}
