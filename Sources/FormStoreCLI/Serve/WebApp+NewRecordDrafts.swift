import FormCore
import FormWeb

/// What a visitor types on a new-record page is kept as their draft of a
/// new record of the form (one per visitor and form), as a record's page
/// keeps theirs: the page's script posts it while they type, and the page
/// offers it again until it is restored and saved, or discarded.
extension WebApp {
    /// The visitor's drafts of a new record of `form`, newest first.
    private func newDrafts(_ form: Form, visit: Visit) throws -> [Draft] {
        guard !readOnly else { return [] }
        return try workspace.store().drafts(form: form.name, key: nil, owner: draftOwner(visit))
    }

    /// The offer to restore or discard the visitor's unsaved new record, or nothing.
    func newDraftOffer(_ form: Form, visit: Visit) throws -> String {
        guard let draft = try newDrafts(form, visit: visit).first else { return "" }
        return Self.draftOffer(draft, path: "/forms/" + Self.pathSegment(form.name) + "/new",
                               saying: "You have an unsaved new record", buttons: ("Restore it", "Discard it"), visit: visit)
    }

    /// `POST /forms/NAME/new/draft`: the page as typed, kept as the visitor's one draft of a new record.
    func keepNewDraft(_ name: String, body: SubmittedForm, visit: Visit) throws -> HTTPResponse {
        try locked {
            let form = workspace.withSaveStep(try self.form(named: name))
            let store = try workspace.store()
            let older = try newDrafts(form, visit: visit)
            let session = FormSession.new(form, backend: store, drafts: store, owner: draftOwner(visit))
            _ = try apply(body, to: session)
            session.close()
            for draft in older { try store.deleteDraft(id: draft.id) }
            return HTTPResponse(status: 204)
        }
    }

    /// `POST /forms/NAME/new/draft/restore`: the new-record page with the visitor's draft in it.
    func restoreNewDraft(_ name: String, visit: Visit) throws -> HTTPResponse {
        try locked {
            let form = workspace.withSaveStep(try self.form(named: name))
            guard let draft = try newDrafts(form, visit: visit).first else {
                return .redirect("/forms/" + Self.pathSegment(form.name) + "/new")
            }
            let store = try workspace.store()
            let session = FormSession.new(form, backend: store, drafts: store, owner: draftOwner(visit))
            _ = try session.restore(draft)
            let notice = "<div class=\"notice\" role=\"status\">Your unsaved new record is back. Create it to keep it.</div>\n"
            return .html(200, try newRecordHTML(session, visit: visit, notice: notice))
        }
    }

    /// `POST /forms/NAME/new/draft/discard`.
    func discardNewDraft(_ name: String, visit: Visit) throws -> HTTPResponse {
        try locked {
            let form = try self.form(named: name)
            try discardNewDrafts(form, visit: visit)
            return .redirect("/forms/" + Self.pathSegment(form.name) + "/new")
        }
    }

    /// Deletes the visitor's drafts of a new record of `form` (a new record was saved, or they were discarded).
    func discardNewDrafts(_ form: Form, visit: Visit) throws {
        let store = try workspace.store()
        for draft in try newDrafts(form, visit: visit) { try store.deleteDraft(id: draft.id) }
    }
}
