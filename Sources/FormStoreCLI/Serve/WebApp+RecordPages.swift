import FormBasics
import FormCore
import FormStorage
import FormWeb
import FoundationEssentials

/// A record's pages: shown and edited as its form's mode says, saved,
/// created, deleted after a confirmation; drafts kept and offered.
extension WebApp {
    /// Drafts belong to a logged-in user, or without logins to the browser (its cookie).
    func draftOwner(_ visit: Visit) -> String {
        visit.user == "web" ? "browser:" + visit.id : visit.user
    }

    func recordPath(_ form: Form, _ key: String) -> String {
        "/forms/" + Self.pathSegment(form.name) + "/" + Self.pathSegment(key)
    }

    /// Opens the record `key` (as typed in the URL) of form `name`, for the visitor.
    func openRecord(_ name: String, key: String, visit: Visit, drafts: Bool, editing: Bool,
                    saving: Bool = false) throws -> FormSession {
        var form = try self.form(named: name)
        // One post writes all its fields at once: free mode saves them in one step here too.
        if saving { form = workspace.withSaveStep(form) }
        let recordKey = try workspace.recordKey(try KeyArgument(parsing: key), of: form)
        let store = try workspace.store()
        let session = try FormSession.open(form, key: recordKey, backend: store, drafts: drafts && !readOnly ? store : nil,
                                           owner: draftOwner(visit), draftPolicy: drafts ? .autosave : .none)
        session.attribution = attribution(visit.user)
        if editing && form.mode == .edit { try session.beginEditing() }
        return session
    }

    func recordPage(_ name: String, key: String, editing: Bool, saved: String?, undone: String? = nil, redone: String? = nil,
                    created: String? = nil, kept: String? = nil, visit: Visit) throws -> HTTPResponse {
        let html = try locked { () throws -> String in
            let session = try openRecord(name, key: key, visit: visit, drafts: true, editing: editing)
            let notice = stepNotice(session.form, key: key, saved: saved, undone: undone, redone: redone, created: created,
                                    visit: visit) + keptNotice(session.form, kept)
            return try recordHTML(session, key: key, visit: visit, notice: notice + draftOffer(session, key: key, visit: visit))
        }
        return .html(200, html)
    }

    /// The record's page around its form: the mode's buttons, the links, the draft offer.
    func recordHTML(_ session: FormSession, key: String, visit: Visit, notice: String, status: String = "",
                    refused: FormStoreError? = nil, drawnFrom: SubmittedForm? = nil) throws -> String {
        let form = session.form
        let path = recordPath(form, key)
        let references = try references(session, refused: refused)
        let options = FormHTML.Options(action: path, csrfToken: visit.csrf, readOnly: readOnly,
                                       eventsHref: "/api/forms/\(Self.pathSegment(form.name))/records/\(Self.pathSegment(key))/events",
                                       references: references.fields, rowReferences: references.cells, drawnFrom: drawnFrom)
        var drawn = options
        // The record as stored now, by which a free-mode page knows its own saves' events (it saves
        // without leaving), and any page, its stream opened again after it was hidden, hears of a
        // save made meanwhile (`events(_:key:since:)`).
        if let stored = session.key, let record = try workspace.store().load(form, key: stored) {
            drawn.etag = RecordETag.of(record).filter { $0 != "\"" }
        }
        var body = notice + FormHTML(session, options: drawn).render()
        body += "<div class=\"actions\">"
        if form.mode == .edit && !session.isEditing && !readOnly {
            body += "<a class=\"button\" href=\"\(HTML.escape(path))?edit=1\">Edit</a>"
        }
        // Editing, the way back without saving (what was typed stays a draft, offered there).
        if form.mode == .edit && session.isEditing && !readOnly {
            body += "<a class=\"button secondary\" href=\"\(HTML.escape(path))\">Cancel</a>"
        }
        body += "<a href=\"\(HTML.escape(path))/history\">History</a>"
        // A spec's own `delete` action says when it shows (the profile's only while editing).
        let deleteShown = form.field("delete").map { $0.kind != .action || session.isVisible($0.key) } ?? true
        if !readOnly && deleteShown { body += "<a class=\"button danger\" href=\"\(HTML.escape(path))/delete\">Delete…</a>" }
        body += "<a href=\"/forms/\(HTML.escape(Self.pathSegment(form.name)))\">Back to \(HTML.escape(form.title))</a></div>\n"
        return WebPage(title: "\(HTML.isolated(form.title)) \(HTML.isolated(key))", breadcrumbs: [("Forms", "/"), (form.title, "/forms/" + Self.pathSegment(form.name))],
                       body: status + body).render()
    }

    /// "You have unsaved changes": Restore or Discard, as small forms that work without the script.
    private func draftOffer(_ session: FormSession, key: String, visit: Visit) -> String {
        guard !readOnly, let draft = session.offeredDrafts.first else { return "" }
        return Self.draftOffer(draft, path: recordPath(session.form, key), saying: "You have unsaved changes to this record",
                               buttons: ("Restore them", "Discard them"), visit: visit)
    }

    /// The notice offering `draft` back: restore and discard buttons posting to `path/draft/…`.
    static func draftOffer(_ draft: Draft, path: String, saying text: String, buttons: (restore: String, discard: String),
                           visit: Visit) -> String {
        let when = ISO8601.shortDateTime(draft.updatedAt)
        // Read by a person to the minute (`2026-12-07 00:58 UTC`); the element keeps the exact time.
        let shown = String(when.prefix(16)).replacing("T", with: " ") + " UTC"
        var out = "<div class=\"notice\" role=\"status\" id=\"draft-offer\"><p>\(HTML.escape(text)) from <time datetime=\"\(when)\">\(shown)</time>.</p>"
        out += "<div class=\"actions\">"
        for (action, label, style) in [("restore", buttons.restore, ""), ("discard", buttons.discard, " class=\"secondary\"")] {
            out += "<form method=\"post\" action=\"\(HTML.escape(path))/draft/\(action)\"><input type=\"hidden\" name=\"_csrf\" value=\"\(visit.csrf)\">"
            out += "<button type=\"submit\"\(style)>\(label)</button></form>"
        }
        return out + "</div></div>\n"
    }

    /// A post applied to `session`, an emptied field or row cell storing what
    /// the command's one rule says (`EmptyInputPolicy`): NULL where the column
    /// allows it, and a `NOT NULL` column without a default refused as required
    /// (the page stored `''`).
    func apply(_ body: SubmittedForm, to session: FormSession) throws -> SubmissionResult {
        let policy = try workspace.emptyInputPolicy(of: session.form)
        return session.apply(submitted: body, clearing: { policy.cleared($0) },
                             clearingCell: { policy.cleared($1, inGroup: $0.key) })
    }

    /// `POST /forms/NAME/KEY`: what the person changed, saved; a conflict or errors shown on the form.
    func save(_ name: String, key: String, body: SubmittedForm, visit: Visit) throws -> HTTPResponse {
        try locked {
            let session: FormSession
            do {
                session = try openRecord(name, key: key, visit: visit, drafts: false, editing: true, saving: true)
            } catch let missing as SessionError where missing.reason == .notFound {
                return try deletedMeanwhile(name, body: body, visit: visit)
            }
            let result = try apply(body, to: session)
            let lost = FormHTML.secretsNotKept(body, form: session.form)
            if !result.refused.isEmpty {
                let list = result.refused.map { "<li>\(HTML.escape($0.message))</li>" }.joined()
                return .html(422, try recordHTML(session, key: key, visit: visit, notice: "<div class=\"notice conflict\" role=\"alert\"><p>Nothing was saved:</p><ul>\(list)</ul></div>\n" + lost))
            }
            if !result.conflicts.isEmpty { return conflictPage(session, key: key, conflicts: result.conflicts, visit: visit) }
            if let action = RowAction(body) {
                let notice = try rowStep(action, session, result)
                return .html(200, try recordHTML(session, key: key, visit: visit, notice: notice, drawnFrom: body))
            }
            let asked = Dictionary(uniqueKeysWithValues: session.dirtyFields.map { ($0, session.value($0)) })
            let outcome: SaveOutcome
            switch try savingReferences(session) {
            case .success(let saved): outcome = saved
            case .failure(let refused):
                return .html(422, try recordHTML(session, key: key, visit: visit, notice: refused.notice + lost, refused: refused.reference))
            }
            switch outcome {
            case .saved(let changed, let newKey):
                try discardOffered(session, visit: visit)
                keepForUndo(session, visitor: visit.id)
                // A field the database kept as it was (a trigger set it back) is said so, not as saved.
                let kept = changed.filter { key in asked[key].map { $0 != session.pristineValue(key) } ?? false }
                var step = "?saved=" + Self.queryValue(changed.filter { !kept.contains($0) }.joined(separator: ","))
                if !kept.isEmpty { step += "&kept=" + Self.queryValue(kept.joined(separator: ",")) }
                return .redirect(recordPath(session.form, newKey.typedText) + step)
            case .unchanged:
                return .redirect(recordPath(session.form, key) + "?saved=")
            case .invalid:
                return .html(422, try recordHTML(session, key: key, visit: visit, notice: lost))
            case .conflict(let conflicts):
                return conflictPage(session, key: key, conflicts: conflicts.map { WebConflict($0, in: session) }, visit: visit)
            case .notFound:
                return try deletedMeanwhile(name, body: body, visit: visit)
            }
        }
    }

    /// A save of a record someone deleted since the page was drawn: what was
    /// typed is not lost, but drawn on the new-record page (409), to be saved
    /// as a new record or left. It was a bare "no longer exists".
    private func deletedMeanwhile(_ name: String, body: SubmittedForm, visit: Visit) throws -> HTTPResponse {
        let form = workspace.withSaveStep(try self.form(named: name))
        let session = FormSession.new(form, backend: try workspace.store())
        // Every value as posted: there is no stored record to judge a change against.
        _ = try apply(SubmittedForm(members: body.members.filter { !$0.name.hasPrefix("_") || $0.name == "_csrf" }), to: session)
        let notice = "<div class=\"notice conflict\" role=\"alert\">Someone else deleted this record since you opened it: "
            + "nothing was saved. What you typed is below: save it as a new record, or leave it.</div>\n"
        return .html(409, try newRecordHTML(session, visit: visit, notice: notice))
    }

    private func conflictPage(_ session: FormSession, key: String, conflicts: [WebConflict], visit: Visit) -> HTTPResponse {
        let form = session.form
        let html = FormHTML(session, options: .init(action: recordPath(form, key), csrfToken: visit.csrf)).conflicts(conflicts)
        return .html(409, WebPage(title: "\(HTML.isolated(form.title)) \(HTML.isolated(key)): someone else saved it",
                                  breadcrumbs: [("Forms", "/"), (form.title, "/forms/" + Self.pathSegment(form.name))],
                                  body: FormHTML.notice(.conflict([]), form: form) + html).render())
    }

    /// A save keeps no draft of the record: the visitor's drafts of it go.
    private func discardOffered(_ session: FormSession, visit: Visit) throws {
        let store = try workspace.store()
        guard let key = session.key else { return }
        for draft in try store.drafts(form: session.form.name, key: key, owner: draftOwner(visit)) {
            try store.deleteDraft(id: draft.id)
        }
    }

    /// `POST …/validate`: the errors of the field just left (`_field`), or of
    /// a row's cell (`_cell`, `lines[#2].amount`), as JSON, nothing saved.
    func validate(_ name: String, key: String?, body: SubmittedForm, visit: Visit) throws -> HTTPResponse {
        try locked {
            let session: FormSession
            if let key {
                session = try openRecord(name, key: key, visit: visit, drafts: false, editing: true, saving: true)
            } else {
                session = FormSession.new(workspace.withSaveStep(try self.form(named: name)), backend: try workspace.store())
            }
            _ = try apply(body, to: session)
            struct Answer: Encodable { var field: String; var errors: [FieldError] }
            // A row's cell, named by its place (`lines[#2].amount`): the rows' checks and the group's rules.
            if let cell = body.value("_cell") {
                let errors = session.validateGroups().filter { $0.field == cell }
                return .json(200, try JSONEncoder().encode(Answer(field: cell, errors: errors)))
            }
            let field = body.value("_field") ?? ""
            session.commit(field)
            return .json(200, try JSONEncoder().encode(Answer(field: field, errors: session.errors(field))))
        }
    }

    /// `POST …/draft`: the form as typed kept as the visitor's draft of the record (one per record).
    func keepDraft(_ name: String, key: String, body: SubmittedForm, visit: Visit) throws -> HTTPResponse {
        try locked {
            let session = try openRecord(name, key: key, visit: visit, drafts: true, editing: true, saving: true)
            let older = session.offeredDrafts
            _ = try apply(body, to: session)
            session.close()
            for draft in older { try session.discard(draft) }
            return HTTPResponse(status: 204)
        }
    }

    func restoreDraft(_ name: String, key: String, visit: Visit) throws -> HTTPResponse {
        try locked {
            let session = try openRecord(name, key: key, visit: visit, drafts: true, editing: true, saving: true)
            guard let draft = session.offeredDrafts.first else { return .redirect(recordPath(session.form, key)) }
            let restored = try session.restore(draft)
            // A field someone else saved since the draft was typed: the draft's value is kept (so the
            // draft, written again, still holds it) and the visitor chooses, as after a save's conflict.
            // It was left at theirs without a word, and the draft rewritten without it.
            if !restored.conflicts.isEmpty {
                for conflict in restored.conflicts { try session.keepDraftValue(conflict, of: draft) }
                return conflictPage(session, key: key, conflicts: restored.conflicts.map { WebConflict($0, in: session) },
                                    visit: visit)
            }
            let notice = "<div class=\"notice\" role=\"status\">Your unsaved changes are back. Save to keep them.</div>\n"
            return .html(200, try recordHTML(session, key: key, visit: visit, notice: notice))
        }
    }

    func discardDrafts(_ name: String, key: String, visit: Visit) throws -> HTTPResponse {
        try locked {
            let session = try openRecord(name, key: key, visit: visit, drafts: true, editing: false)
            for draft in session.offeredDrafts { try session.discard(draft) }
            return .redirect(recordPath(session.form, key))
        }
    }

    /// `GET /forms/NAME/new`: an empty record's form, and the visitor's
    /// unsaved new record of the form offered (`WebApp+NewRecordDrafts`).
    func newRecordPage(_ name: String, visit: Visit) throws -> HTTPResponse {
        try locked {
            let form = workspace.withSaveStep(try self.form(named: name))
            if let refusal = Self.refusingNewRecords(form) { return refusal }
            let session = FormSession.new(form, backend: try workspace.store())
            return .html(200, try newRecordHTML(session, visit: visit, notice: try newDraftOffer(form, visit: visit)))
        }
    }

    /// The page for a new record of a form that takes none (`Form.takesNewRecords`), else `nil`.
    static func refusingNewRecords(_ form: Form) -> HTTPResponse? {
        guard !form.takesNewRecords else { return nil }
        let base = "/forms/" + pathSegment(form.name)
        let body = "<p class=\"notice conflict\" role=\"alert\">\(HTML.escape(form.title)) takes no new records: "
            + "every field of it is read-only.</p>\n<p><a href=\"\(HTML.escape(base))\">Back to \(HTML.escape(form.title))</a></p>\n"
        return .html(403, WebPage(title: "New \(form.title)", breadcrumbs: [("Forms", "/"), (form.title, base)], body: body).render())
    }

    func newRecordHTML(_ session: FormSession, visit: Visit, notice: String = "", refused: FormStoreError? = nil,
                               drawnFrom: SubmittedForm? = nil) throws -> String {
        let form = session.form
        let base = "/forms/" + Self.pathSegment(form.name)
        let references = try references(session, refused: refused)
        let options = FormHTML.Options(action: base + "/new", csrfToken: visit.csrf, readOnly: readOnly, submitLabel: "Create",
                                       references: references.fields, rowReferences: references.cells, drawnFrom: drawnFrom)
        return WebPage(title: "New \(form.title)", breadcrumbs: [("Forms", "/"), (form.title, base)],
                       body: notice + FormHTML(session, options: options).render()).render()
    }

    /// `POST /forms/NAME` (or `/forms/NAME/new`): a new record, or its form again with the errors.
    func create(_ name: String, body: SubmittedForm, visit: Visit) throws -> HTTPResponse {
        try locked {
            let form = workspace.withSaveStep(try self.form(named: name))
            if let refusal = Self.refusingNewRecords(form) { return refusal }
            let session = FormSession.new(form, backend: try workspace.store())
            session.attribution = attribution(visit.user)
            let result = try apply(body, to: session)
            let lost = FormHTML.secretsNotKept(body, form: form)
            if !result.refused.isEmpty {
                let list = result.refused.map { "<li>\(HTML.escape($0.message))</li>" }.joined()
                return .html(422, try newRecordHTML(session, visit: visit, notice: "<div class=\"notice conflict\" role=\"alert\"><ul>\(list)</ul></div>\n" + lost))
            }
            if let action = RowAction(body) {
                let notice = try rowStep(action, session, result)
                return .html(200, try newRecordHTML(session, visit: visit, notice: notice, drawnFrom: body))
            }
            switch try savingReferences(session) {
            case .failure(let refused):
                return .html(422, try newRecordHTML(session, visit: visit, notice: refused.notice + lost, refused: refused.reference))
            case .success(.saved(let changed, let key)):
                // Saved, the visitor's unsaved new record of the form is no longer theirs to restore.
                try discardNewDrafts(form, visit: visit)
                // Made with nothing typed, every field at its default: said as made, not "Nothing changed."
                // (nor "Saved: name, n." for the defaults it was given).
                let typed = changed.filter { key in form.field(key).map { session.value(key) != ($0.defaultValue ?? .null) } ?? true }
                let step = typed.isEmpty ? "?created=" : "?saved=" + Self.queryValue(changed.joined(separator: ","))
                return .redirect(recordPath(form, key.typedText) + step)
            default:
                return .html(422, try newRecordHTML(session, visit: visit, notice: lost))
            }
        }
    }

    /// `GET /forms/NAME/KEY/delete`: are you sure?
    func deletePage(_ name: String, key: String, visit: Visit) throws -> HTTPResponse {
        let html = try locked { () throws -> String in
            let session = try openRecord(name, key: key, visit: visit, drafts: false, editing: false)
            let form = session.form
            let path = recordPath(form, key)
            // Rows referring to it under no ON DELETE rule hold it back: said before the person tries.
            let holding = try workspace.store().referrers(of: form, key: try workspace.recordKey(try KeyArgument(parsing: key), of: form))
            guard holding.isEmpty else {
                let body = "<div class=\"panel\"><p class=\"notice conflict\" role=\"alert\">Record <strong>\(HTML.escape(key))</strong> "
                    + "of \(HTML.escape(form.title)) cannot be deleted: other records refer to it through "
                    + "\(HTML.escape(holding.joined(separator: ", "))). Change or delete those first.</p>\n"
                    + "<p class=\"actions\"><a href=\"\(HTML.escape(path))\">Back to the record</a></p></div>\n"
                return WebPage(title: "Delete \(HTML.isolated(form.title)) \(HTML.isolated(key))?", breadcrumbs: [("Forms", "/"), (form.title, "/forms/" + Self.pathSegment(form.name))],
                               body: body).render()
            }
            var body = "<div class=\"panel\"><p>Delete record <strong>\(HTML.escape(key))</strong> of \(HTML.escape(form.title))? This cannot be undone.</p>\n"
            // What the schema's ON DELETE rules take with it, as `formstore delete` asks.
            let effects = try workspace.deleteEffects(of: form, key: try KeyArgument(parsing: key))
            if effects.count == 1 {
                body += "<p>With it: \(HTML.escape(effects[0].description)).</p>\n"
            } else if !effects.isEmpty {
                body += "<p>With it:</p>\n<ul>" + effects.map { "<li>\(HTML.escape($0.description))</li>" }.joined() + "</ul>\n"
            }
            body += "<form method=\"post\" action=\"\(HTML.escape(path))/delete\" class=\"actions\"><input type=\"hidden\" name=\"_csrf\" value=\"\(visit.csrf)\">"
            body += "<button type=\"submit\" class=\"danger\">Delete</button><a href=\"\(HTML.escape(path))\">Cancel</a></form></div>\n"
            return WebPage(title: "Delete \(HTML.isolated(form.title)) \(HTML.isolated(key))?", breadcrumbs: [("Forms", "/"), (form.title, "/forms/" + Self.pathSegment(form.name))],
                           body: body).render()
        }
        return .html(200, html)
    }

    /// Where `deletedKeys` keeps what a visitor deleted of a form.
    static func deletedSlot(_ visit: Visit, _ form: Form) -> String { visit.id + "\u{0}" + form.name }

    /// `POST /forms/NAME/KEY/delete`.
    func delete(_ name: String, key: String, visit: Visit) throws -> HTTPResponse {
        try locked {
            let form = try self.form(named: name)
            try workspace.deleteRecord(of: form, key: try KeyArgument(parsing: key))
            deletedKeys[Self.deletedSlot(visit, form)] = key
            // The list says what went: a delete is no silent landing on the first page.
            return .redirect("/forms/" + Self.pathSegment(form.name) + "?deleted=" + Self.queryValue(key))
        }
    }
}
