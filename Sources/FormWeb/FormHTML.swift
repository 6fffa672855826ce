import FoundationEssentials
public import FormCore

/// A session drawn as an accessible HTML form: a `<form>` with a
/// `<fieldset>`/`<legend>` per section, a `<label>` for every input, inputs by
/// kind, each error tied to its field by `aria-describedby`, and read-only
/// and hidden fields as the session's mode and conditions say. It asks the
/// session what is editable and never re-derives the rules.
///
/// ```swift
/// let html = FormHTML(session, options: .init(action: "/forms/signup/1", csrfToken: token)).render()
/// ```
///
/// Every value goes through `HTML.escape`; a secure field's value is never
/// written into the page. Knows no HTTP server: the caller sends the string.
public struct FormHTML {
    public struct Options: Sendable {
        /// Where the form posts.
        public var action: String
        /// Written as the hidden `_csrf` member every write must carry.
        public var csrfToken: String?
        /// Every field shown read-only, with no save button (a read-only server,
        /// an edit-mode record not being edited).
        public var readOnly: Bool
        /// The label of the submit button.
        public var submitLabel: String
        /// A server-sent events stream of the record's saves, for the page's script.
        public var eventsHref: String?
        /// The tag of the record as drawn (its `ETag`, without quotes): the script
        /// knows a `saved` event of its own free-mode save by it.
        public var etag: String?
        /// Foreign-key fields drawn as pickers, by field key (see `WebReference`).
        public var references: [String: WebReference]
        /// Foreign-key cells of the groups' rows drawn as pickers, by the
        /// cell's place (`lines[#2].product_id`, `GroupPath.position`): each
        /// row's value has its own label and, when it refers to no row, its problem.
        public var rowReferences: [String: WebReference]
        /// The post this page answers without saving (a row button's): its
        /// `_base` and `_rows` are carried on, so a later save still judges
        /// the person's changes against what they first saw.
        public var drawnFrom: SubmittedForm?

        public init(action: String, csrfToken: String? = nil, readOnly: Bool = false, submitLabel: String = "Save",
                    eventsHref: String? = nil, references: [String: WebReference] = [:],
                    rowReferences: [String: WebReference] = [:], drawnFrom: SubmittedForm? = nil) {
            self.action = action
            self.rowReferences = rowReferences
            self.drawnFrom = drawnFrom
            self.references = references
            self.eventsHref = eventsHref
            self.csrfToken = csrfToken
            self.readOnly = readOnly
            self.submitLabel = submitLabel
        }
    }

    let session: FormSession
    let options: Options

    public init(_ session: FormSession, options: Options) {
        self.session = session
        self.options = options
    }

    /// The `<form>` element, with an error summary at its top when there are errors.
    public func render() -> String {
        var out = "<form method=\"post\" action=\"\(HTML.escape(options.action))\" class=\"record\" novalidate"
        out += " data-form=\"\(HTML.escape(session.form.name))\" data-mode=\"\(session.form.mode.rawValue)\""
        if let events = options.eventsHref { out += " data-events=\"\(HTML.escape(events))\"" }
        if let etag = options.etag { out += " data-etag=\"\(HTML.escape(etag))\"" }
        if options.drawnFrom != nil { out += " data-unsaved" }
        // The form turned its unsaved-changes warning off: leaving does not ask.
        if session.form.unsavedChangesWarning == nil { out += " data-leave-silently" }
        out += ">\n"
        if let token = options.csrfToken {
            out += "<input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(token))\">\n"
        }
        let groups = editableGroups
        if !groups.isEmpty {
            // Enter in a field presses a form's first submit button: Save, not a row's Remove.
            out += "<button type=\"submit\" class=\"visually-hidden\" tabindex=\"-1\" aria-hidden=\"true\">\(HTML.escape(options.submitLabel))</button>\n"
        }
        out += errorSummary()
        if let posted = options.drawnFrom { out += Self.secretsNotKept(posted, form: session.form) }
        if !options.readOnly {
            out += "<input type=\"hidden\" name=\"_base\" value=\"\(HTML.escape(options.drawnFrom?.value("_base") ?? baseJSON()))\">\n"
        }
        if !groups.isEmpty {
            out += "<input type=\"hidden\" name=\"_groups\" value=\"\(HTML.escape(Self.keysJSON(groups.map(\.key))))\">\n"
            out += "<input type=\"hidden\" name=\"_rows\" value=\"\(HTML.escape(options.drawnFrom?.value("_rows") ?? rowsJSON()))\">\n"
        }
        let hidden = session.visibility
        for section in session.form.sections {
            if let group = section.group {
                out += self.group(section, group)
                continue
            }
            let shown = section.fields.filter { !hidden.isHidden($0.key) }
            guard !shown.isEmpty else { continue }
            out += "<fieldset>\n"
            if let title = section.title { out += "<legend>\(HTML.escape(title))</legend>\n" }
            for field in shown { out += self.field(field) }
            out += "</fieldset>\n"
        }
        if !options.readOnly && (editableKeys.count > 0 || !groups.isEmpty) {
            out += "<input type=\"hidden\" name=\"_fields\" value=\"\(HTML.escape(Self.keysJSON(editableKeys)))\">\n"
            // Which posted values are secrets, should a page have to hold the post while the form
            // cannot be read (a locked database): it then draws none of them back.
            let secure = PostedName.secureKeys(of: session.form)
            if !secure.isEmpty {
                out += "<input type=\"hidden\" name=\"_secure\" value=\"\(HTML.escape(Self.keysJSON(secure.sorted())))\">\n"
            }
            out += "<div class=\"actions\"><button type=\"submit\">\(HTML.escape(options.submitLabel))</button></div>\n"
        }
        out += "</form>\n"
        return out
    }

    /// The keys of the visible fields a person may change now.
    var editableKeys: [String] {
        guard !options.readOnly else { return [] }
        return session.visibleFields.filter { $0.holdsValue && session.whyNotEditable($0.key) == nil }.map(\.key)
    }

    /// The values the page was drawn from, as the browser shows them: a later
    /// post compares with them to tell what the person changed from what
    /// someone else saved meanwhile (`FormSession.apply(submitted:)`).
    /// Secure fields are left out.
    func baseJSON() -> String {
        // NULL as JSON's null, apart from empty text, which an input draws alike.
        var members: [String: String?] = [:]
        for field in session.form.fields where field.holdsValue && field.isStored {
            let value = session.pristineValue(field.key)
            // A secure field's value is never on the page: its keyed digest tells a post it changed.
            members[field.key] = field.isSecure ? SecureFieldDigest.of(field.key, value, in: session)
                : value == .null ? String?.none : WebText.of(value, in: field)
        }
        return WebJSON.encoded(members, or: "{}")
    }

    /// Field keys as a JSON array: a key may hold any character, and browsers
    /// drop line breaks from a hidden input's value.
    /// A page drawn again from a post that was not saved (a refusal, a row added without
    /// script) draws no secret typed there back: said, or the next save would leave the
    /// password unchanged without a word. Empty when the post held none.
    public static func secretsNotKept(_ posted: SubmittedForm, form: Form) -> String {
        let secure = PostedName.secureKeys(of: form)
        guard posted.members.contains(where: { !$0.value.isEmpty && PostedName.isSecure($0.name, among: secure) }) else { return "" }
        return "<p class=\"notice conflict\" role=\"alert\">A password is not kept here: type it again before you save.</p>\n"
    }

    static func keysJSON(_ keys: [String]) -> String {
        return WebJSON.encoded(keys, or: "[]")
    }

    /// A list of every error at the top, each linking to its field (Django admin's summary).
    func errorSummary() -> String {
        // A value referring to no row is the store's finding, not the session's: listed with the others.
        let problems = [options.references, options.rowReferences].flatMap { references in
            references.keys.sorted().compactMap { key in
                references[key]?.problem.map { FieldError(field: key, code: "reference", message: $0) }
            }
        }
        let errors = session.allErrors + problems
        guard !errors.isEmpty else { return "" }
        var out = "<div class=\"error-summary\" role=\"alert\" tabindex=\"-1\">\n<p>Please correct the errors below.</p>\n<ul>\n"
        for error in errors {
            if let key = error.field, let anchor = anchor(key) {
                out += "<li><a href=\"#\(HTML.escape(anchor))\">\(HTML.escape(summaryText(error)))</a></li>\n"
            } else {
                out += "<li>\(HTML.escape(error.message))</li>\n"
            }
        }
        return out + "</ul>\n</div>\n"
    }
}
