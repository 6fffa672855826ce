import FoundationEssentials
import FormCore
import FormWeb

/// Undo and Redo of a save on the record's page (issue 18): the notice after
/// a save offers Undo, a post with the CSRF token that undoes the save
/// through the session that made it (`FormSession.undo()`: a new save of the
/// previous values, checked for conflicts, recorded in the history); the
/// notice then offers Redo. Works without script.
extension WebApp {
    /// Keeps the session of a page's save so its notice can offer Undo (a
    /// save that wrote rows too: undoing it saves the previous rows again).
    func keepForUndo(_ session: FormSession, visitor: String) {
        guard session.undoSaves, let key = session.key else { return }
        undoable.keep(session, visitor: visitor, key: key.typedText)
    }

    /// The notice after a save, an undo or a redo (`?saved=`, `?undone=`,
    /// `?redone=` with the fields), with the button for the next step.
    /// `?kept=`: fields a save wrote that the database kept as they were (a trigger set them
    /// back), by the form's own labels only, as `?saved=` names them.
    func keptNotice(_ form: Form, _ kept: String?) -> String {
        let labels = (kept ?? "").split(separator: ",").compactMap { form.field(String($0))?.label }
        guard !labels.isEmpty else { return "" }
        return "<div class=\"notice conflict\" role=\"status\">The database kept \(HTML.escape(labels.joined(separator: ", "))) "
            + "as it was (a trigger set it back).</div>\n"
    }

    /// `?created=`: a new record made with nothing typed.
    func stepNotice(_ form: Form, key: String, saved: String?, undone: String?, redone: String?, created: String? = nil,
                    visit: Visit) -> String {
        if created != nil, saved == nil { return "<div class=\"notice saved\" role=\"status\">Created.</div>\n" }
        guard let (verb, list) = saved.map({ ("Saved", $0) }) ?? undone.map({ ("Undone", $0) }) ?? redone.map({ ("Redone", $0) })
        else { return "" }
        // The form's own fields and groups only: the address is anyone's to write, and any other
        // text would be a notice the server never gave ("Saved: call this number").
        let labels = list.split(separator: ",").compactMap { form.field(String($0))?.label ?? form.group(String($0)).map { group in
            form.sections.first { $0.group?.key == group.key }?.title ?? group.key } }
        if labels.isEmpty { return "<div class=\"notice\" role=\"status\">Nothing changed.</div>\n" }
        var out = "<div class=\"step\"><div class=\"notice saved\" role=\"status\">\(verb): \(HTML.escape(labels.joined(separator: ", "))).</div>"
        if !readOnly, let session = undoable.session(visitor: visit.id, form: form.name, key: key) {
            let path = recordPath(form, key)
            if verb != "Undone" && session.canUndo && session.undoSaves {
                out += stepButton(path + "/undo", "Undo", "Undo this save: save the values it replaced", visit: visit)
            } else if verb == "Undone" && session.canRedo {
                out += stepButton(path + "/redo", "Redo", "Redo the save just undone", visit: visit)
            }
        }
        return out + "</div>\n"
    }

    private func stepButton(_ action: String, _ label: String, _ title: String, visit: Visit) -> String {
        "<form method=\"post\" action=\"\(HTML.escape(action))\" class=\"step-form\"><input type=\"hidden\" name=\"_csrf\" value=\"\(visit.csrf)\">"
            + "<button type=\"submit\" class=\"secondary\" title=\"\(HTML.escape(title))\">\(label)</button></form>"
    }

    /// `POST /forms/NAME/KEY/undo` and `…/redo`: the step through the saving
    /// session; 303 back to the record with what it saved, or the record with
    /// why not (409 a conflict, 422 invalid, 404 gone or nothing to take back).
    func undo(_ name: String, key: String, redo: Bool, visit: Visit) throws -> HTTPResponse {
        try locked {
            let form = try self.form(named: name)
            let path = recordPath(form, key)
            let verb = redo ? "redo" : "undo"
            func refused(_ status: Int, _ message: String) throws -> HTTPResponse {
                let fresh = try openRecord(name, key: key, visit: visit, drafts: false, editing: false)
                let notice = "<div class=\"notice conflict\" role=\"alert\">\(HTML.escape(message))</div>\n"
                return .html(status, try recordHTML(fresh, key: key, visit: visit, notice: notice))
            }
            guard let session = undoable.session(visitor: visit.id, form: form.name, key: key),
                  redo ? session.canRedo : session.canUndo && session.undoSaves else {
                return try refused(404, "There is no save of yours to \(verb) here (the server keeps the last one per record until it stops).")
            }
            let outcome: SaveOutcome?
            do {
                outcome = redo ? try session.redo() : try session.undo()
            } catch let error as SessionError {
                return try refused(409, "Could not \(verb): \(error.message).")
            }
            switch outcome {
            case .saved(let changed, _)?:
                return .redirect(path + (redo ? "?redone=" : "?undone=") + Self.queryValue(changed.joined(separator: ",")))
            case .conflict(let conflicts)?:
                let fields = conflicts.map { conflict in
                    let field = form.field(conflict.field)
                    guard let field, !field.isSecure else { return field?.label ?? conflict.field }
                    return "\(field.label) (now “\(field.format(conflict.theirs))”)"
                }
                return try refused(409, "Could not \(verb): someone else changed \(fields.joined(separator: ", ")) since. Nothing was saved.")
            case .invalid(let errors)?:
                return try refused(422, "Could not \(verb): " + errors.map(\.message).joined(separator: "; ") + ". Nothing was saved.")
            case .notFound?:
                return try refused(404, "Could not \(verb): the record no longer exists.")
            case .unchanged?, nil:
                return .redirect(path)
            }
        }
    }
}
