public import FormCore

/// What a save did, drawn for the person.
extension FormHTML {
    /// A one-line notice for an outcome (`role="status"`, so a screen reader
    /// says it); invalid outcomes are shown by the form's own error summary.
    public static func notice(_ outcome: SaveOutcome, form: Form) -> String {
        switch outcome {
        case .saved(let changed, _):
            let labels = changed.map { form.field($0)?.label ?? $0 }
            let what = labels.isEmpty ? "" : ": " + labels.joined(separator: ", ")
            return "<div class=\"notice saved\" role=\"status\">Saved\(HTML.escape(what)).</div>\n"
        case .unchanged:
            return "<div class=\"notice\" role=\"status\">Nothing changed.</div>\n"
        case .invalid:
            return ""
        case .conflict:
            return "<div class=\"notice conflict\" role=\"alert\">Someone else changed this record. Choose a value for each field below.</div>\n"
        case .notFound:
            return "<div class=\"notice conflict\" role=\"alert\">This record no longer exists.</div>\n"
        }
    }

    /// The form again, each conflicting field a choice between the person's
    /// value and the stored one (base shown for reference). Posting it saves
    /// the choices: the page's base is now the stored record, so a field left
    /// at "theirs" is unchanged and one set to "yours" is written.
    public func conflicts(_ conflicts: [WebConflict]) -> String {
        let form = session.form
        var out = "<form method=\"post\" action=\"\(HTML.escape(options.action))\" class=\"record conflicts\" novalidate>\n"
        if let token = options.csrfToken {
            out += "<input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(token))\">\n"
        }
        out += "<input type=\"hidden\" name=\"_base\" value=\"\(HTML.escape(baseJSON()))\">\n"
        let conflicted = Set(conflicts.map(\.field))
        var offered: [String] = []
        for conflict in conflicts where conflict.group == nil {
            guard let field = form.field(conflict.field) else { continue }
            offered.append(field.key)
            guard !field.isSecure else {
                out += secureChoice(name: PostedName.field(field.key), label: field.label, id: HTML.id("f-", field.key))
                continue
            }
            out += choice(conflict, name: PostedName.field(field.key), label: field.label, id: HTML.id("f-", field.key))
        }
        out += groupConflicts(conflicts)
        // The person's other changes ride along as they typed them.
        for field in form.fields where field.holdsValue && field.isStored && !field.isSecure && !conflicted.contains(field.key)
            && session.dirtyFields.contains(field.key) {
            offered.append(field.key)
            out += "<input type=\"hidden\" name=\"\(HTML.escape(PostedName.field(field.key)))\" value=\"\(HTML.escape(WebText.of(field.key, in: session)))\">\n"
        }
        out += "<input type=\"hidden\" name=\"_fields\" value=\"\(HTML.escape(Self.keysJSON(offered)))\">\n"
        out += "<div class=\"actions\"><button type=\"submit\">Save my choices</button></div>\n</form>\n"
        return out
    }

    /// A secure field changed on both sides: no value of either is drawn
    /// (not the one replaced, not another writer's, not the person's own).
    /// Left empty it keeps theirs, as an empty password input always keeps
    /// what is stored; typed again, it replaces theirs.
    func secureChoice(name: String, label: String, id: String) -> String {
        var out = "<fieldset class=\"conflict\" id=\"\(id)\"><legend>\(HTML.escape(label))</legend>\n"
        out += "<p class=\"hint\">Someone else changed it too. Leave it empty to keep theirs, or type yours again to replace it.</p>\n"
        out += "<input type=\"password\" name=\"\(HTML.escape(name))\" id=\"\(id)-mine\" value=\"\" autocomplete=\"new-password\" aria-label=\"\(HTML.escape(label))\">\n"
        return out + "</fieldset>\n"
    }
}

extension WebConflict {
    /// A session's conflict (model values) as the page shows values.
    public init(_ conflict: FieldConflict, in form: Form) {
        let text = { (value: FieldValue) in form.field(conflict.field).map { WebText.of(value, in: $0) } ?? "\(value)" }
        self.init(field: conflict.field, base: text(conflict.base), mine: text(conflict.mine), theirs: text(conflict.theirs))
    }
}

extension WebConflict {
    /// A session's conflict as the page shows it, a row's too: the backend
    /// names a row `lines[7]` and its cell `lines[7].amount`.
    public init(_ conflict: FieldConflict, in session: FormSession) {
        for group in session.form.groups where conflict.field.hasPrefix(group.key + "[") {
            let rest = conflict.field.dropFirst(group.key.count + 1)
            guard let close = rest.lastIndex(of: "]") else { continue }
            let key = String(rest[..<close])
            guard let row = session.rows(group.key).first(where: { $0.key?.description == key }) else { continue }
            let cell = rest[close...].dropFirst(2)
            guard !cell.isEmpty, let field = group.field(String(cell)) else {
                // The row itself: deleted by someone else (theirs), or removed here and changed there.
                let gone = conflict.theirs == .text("deleted")
                self.init(field: conflict.field, base: "stored", mine: gone ? "changed" : "removed", theirs: gone ? "deleted" : "changed",
                          group: group.key, row: row.id)
                return
            }
            self.init(field: conflict.field, base: WebText.of(conflict.base, in: field), mine: WebText.of(conflict.mine, in: field),
                      theirs: WebText.of(conflict.theirs, in: field), group: group.key, row: row.id, rowField: field.key)
            return
        }
        self.init(conflict, in: session.form)
    }
}
