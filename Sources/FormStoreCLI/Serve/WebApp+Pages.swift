import FoundationEssentials
import FormBasics
import FormCore
import FormStorage
import FormWeb

/// The pages: forms, a form's records, login. Server-rendered, every one
/// usable without the script.
extension WebApp {
    /// What a page request knows of its visitor.
    struct Visit {
        var user: String
        /// The cookie id (new when the browser had none).
        var id: String
        var csrf: String
        /// `Set-Cookie` when the id is new.
        var cookie: [(String, String)]
    }

    func visit(_ request: HTTPRequest, user: String) -> Visit {
        let existing = visitors.cookieID(request)
        let id = existing ?? WebVisitors.randomToken()
        return Visit(user: user, id: id, csrf: visitors.csrfToken(for: id),
                     cookie: existing == nil ? [WebVisitors.setCookie(id)] : [])
    }

    func page(_ request: HTTPRequest, _ parts: [String], user: String) throws -> HTTPResponse {
        let visit = visit(request, user: user)
        var response = try page(request, parts, visit: visit)
        response.headers += visit.cookie
        return response
    }

    private func page(_ request: HTTPRequest, _ parts: [String], visit: Visit) throws -> HTTPResponse {
        if request.method == "POST" {
            // A browser posts a form as `application/x-www-form-urlencoded` UTF-8 (the page's script too):
            // anything else is refused as what it is, not read as a form (`text/plain` was) nor told its
            // CSRF token is missing (a multipart body's was), and bytes that are not UTF-8 are not saved as U+FFFD.
            let type = request.header("content-type")?.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() }
            guard type == "application/x-www-form-urlencoded" else {
                return .text(415, "a form is posted as application/x-www-form-urlencoded, not \(type ?? "a body of no type")")
            }
            guard let body = SubmittedForm(strictly: request.body) else {
                return .text(400, "the form's body is not URL-encoded UTF-8 (a % without two hex digits, or bytes that are not UTF-8)")
            }
            guard visitors.checkCSRF(body.value("_csrf"), id: visitors.cookieID(request)) else {
                return .html(403, WebPage(title: "Refused", body: "<p class=\"notice conflict\" role=\"alert\">This form is out of date or did not come from this server (its CSRF token is missing or wrong). Go back, reload and try again.</p>\n").render())
            }
            if readOnly && parts.last != "validate" { return Self.readOnlyPage() }
            do {
                return try post(parts, body: body, visit: visit, creating: Self.isNewRecordPath(request))
            } catch {
                // A save or a new record the database could not take now: what was typed is not lost.
                guard parts.first == "forms", (2...3).contains(parts.count),
                      let kept = keptTyping(error, body: body, form: parts[1], action: request.path, visit: visit)
                else { throw error }
                return kept
            }
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return HTTPResponse(status: 405, headers: [("Allow", "GET, POST")])
        }
        switch parts.count {
        case 0: return try formsPage()
        case 2 where parts[0] == "forms": return try recordsPage(parts[1], request: request, visit: visit)
        // Pages that only lead to a write: not offered where nothing can be saved.
        case 3 where parts[0] == "forms" && Self.isNewRecordPath(request) && readOnly,
             4 where parts[0] == "forms" && parts[3] == "delete" && readOnly:
            return Self.readOnlyPage()
        case 3 where parts[0] == "forms" && Self.isNewRecordPath(request): return try newRecordPage(parts[1], visit: visit)
        case 3 where parts[0] == "forms":
            return try recordPage(parts[1], key: parts[2], editing: request.queryValue("edit") != nil,
                                  saved: request.queryValue("saved"), undone: request.queryValue("undone"),
                                  redone: request.queryValue("redone"), created: request.queryValue("created"),
                                  kept: request.queryValue("kept"), visit: visit)
        case 4 where parts[0] == "forms" && parts[3] == "delete": return try deletePage(parts[1], key: parts[2], visit: visit)
        case 4 where parts[0] == "forms" && parts[3] == "history": return try historyPage(parts[1], key: parts[2])
        case 4 where parts[0] == "forms" && Self.postOnlyActions.contains(parts[3]),
             5 where parts[0] == "forms" && parts[3] == "draft" && ["restore", "discard"].contains(parts[4]):
            return HTTPResponse(status: 405, headers: [("Allow", "POST")])
        default: return .html(404, WebPage(title: "Not found", body: "<p>No page here.</p>\n").render())
        }
    }

    /// A save the database could not take now (locked by another program, or
    /// one the server cannot write): the page names why, and holds the post
    /// as it came, to be sent again as it is; it was a bare error, and what
    /// the person typed was gone. A secure field's value is not drawn back
    /// (no page holds one): it is left out, and the page says to type it
    /// again. `nil` for any other error.
    func keptTyping(_ error: any Error, body: SubmittedForm, form name: String, action: String, visit: Visit) -> HTTPResponse? {
        let classified = CLIError.classifying(error, databasePath: "the database")
        guard classified.exitCode == .tryAgain || classified.exitCode == .storage else { return nil }
        // The form is read from the database, which may be what is locked: the page says which
        // of its fields are secure (`_secure`), its groups' cells too. Knowing neither, no value is drawn back.
        let form = try? self.form(named: name)
        let listed = body.value("_secure").flatMap(PostedName.keys(listedIn:))
        let known = form != nil || listed != nil
        let secureKeys = (form.map(PostedName.secureKeys(of:)) ?? []).union(listed ?? [])
        let isSecure = { (name: String) in PostedName.isSecure(name, among: secureKeys) }
        let members = body.members.filter { known && !isSecure($0.name) && $0.name != "_csrf" }
        // The storage messages name the database as "the database" (`failure(_:api:)`): said once here.
        let why = classified.message.hasPrefix("the database: ") ? String(classified.message.dropFirst(14)) : classified.message
        var out = "<div class=\"notice conflict\" role=\"alert\"><p>Nothing was saved: \(HTML.escape(why)).</p>"
        if known {
            out += "<p>What you typed is kept on this page: send it again when the database is free.</p>"
        } else {
            out += "<p>What you typed is not drawn here, as the form could not be read: go back to your page, "
                + "which keeps it, and send it again when the database is free.</p>"
        }
        if known, body.members.contains(where: { isSecure($0.name) && !$0.value.isEmpty }) {
            out += "<p>A password is not kept here: type it again after this save.</p>"
        }
        out += "</div>\n<form method=\"post\" action=\"\(HTML.escape(action))\" class=\"kept\">\n"
        out += "<input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(visit.csrf))\">\n"
        out += "<dl>\n"
        for member in members {
            out += "<input type=\"hidden\" name=\"\(HTML.escape(member.name))\" value=\"\(HTML.escape(member.value))\">\n"
            guard !member.name.hasPrefix("_") else { continue }
            let label = form.flatMap { $0.field(PostedName.key(of: member.name) ?? member.name)?.label } ?? member.name
            out += "<dt>\(HTML.escape(label))</dt><dd>\(HTML.escape(member.value))</dd>\n"
        }
        out += "</dl>\n<div class=\"actions\"><button type=\"submit\">Try again</button></div>\n</form>\n"
        return .html(503, WebPage(title: "Not saved", body: out).render())
    }

    /// What `serve --read-only` answers a write, or a page that only leads to one.
    static func readOnlyPage() -> HTTPResponse {
        .html(403, WebPage(title: "Read-only", body: "<p class=\"notice conflict\" role=\"alert\">This server is read-only "
                                                   + "(formstore serve --read-only): nothing can be saved.</p>\n").render())
    }

    /// A record's actions that only a post takes (`post(_:body:visit:creating:)`):
    /// a GET of one is 405, naming POST, not "no page here".
    static let postOnlyActions: Set<String> = ["validate", "draft", "undo", "redo"]

    /// Whether the path is `/forms/NAME/new…` as written: a record whose key is
    /// "new" is reached as `%6Eew` (`pathSegment`).
    static func isNewRecordPath(_ request: HTTPRequest) -> Bool {
        let raw = request.rawSegments
        return raw.count > 2 && raw[0] == "forms" && raw[2] == "new"
    }

    private func post(_ parts: [String], body: SubmittedForm, visit: Visit, creating: Bool) throws -> HTTPResponse {
        guard parts.first == "forms", parts.count >= 2 else { return .text(404, "No page here.") }
        let name = parts[1]
        let rest = Array(parts.dropFirst(2))
        let key = rest.first ?? ""
        switch (rest.count, rest.dropFirst().joined(separator: "/")) {
        case (0, _): return try create(name, body: body, visit: visit)
        case (1, _) where creating: return try create(name, body: body, visit: visit)
        case (2, "validate") where creating: return try validate(name, key: nil, body: body, visit: visit)
        case (2, "draft") where creating: return try keepNewDraft(name, body: body, visit: visit)
        case (3, "draft/restore") where creating: return try restoreNewDraft(name, visit: visit)
        case (3, "draft/discard") where creating: return try discardNewDraft(name, visit: visit)
        case (1, _): return try save(name, key: key, body: body, visit: visit)
        case (2, "validate"): return try validate(name, key: key, body: body, visit: visit)
        case (2, "draft"): return try keepDraft(name, key: key, body: body, visit: visit)
        case (3, "draft/restore"): return try restoreDraft(name, key: key, visit: visit)
        case (3, "draft/discard"): return try discardDrafts(name, key: key, visit: visit)
        case (2, "delete"): return try delete(name, key: key, visit: visit)
        case (2, "undo"): return try undo(name, key: key, redo: false, visit: visit)
        case (2, "redo"): return try undo(name, key: key, redo: true, visit: visit)
        default: return .text(404, "No page here.")
        }
    }

    /// `GET /`: every form, with links to its records.
    private func formsPage() throws -> HTTPResponse {
        let summaries = try locked { try workspace.formSummaries() }
        // A table a spec of its name stands for is reached through the spec: its inferred form has no page of its own.
        let specs = Set(summaries.filter { $0.source == .spec }.map(\.name))
        var body = "<ul class=\"forms\">\n"
        for summary in summaries where summary.source == .spec || !specs.contains(summary.name) {
            body += "<li><a href=\"/forms/\(HTML.escape(Self.pathSegment(summary.name)))\">\(HTML.escape(summary.title))</a>"
            body += " <span class=\"meta\">\(HTML.escape(summary.name)) · \(summary.source == .view ? "view" : "table") \(HTML.escape(summary.table)) · \(summary.fieldCount) fields · \(summary.source == .spec ? "spec" : "inferred")</span></li>\n"
        }
        body += "</ul>\n"
        if readOnly { body = "<p class=\"notice\">Read-only: records can be looked at, not changed.</p>\n" + body }
        return .html(200, WebPage(title: "Forms", body: body).render())
    }

    /// `GET /forms/NAME`: a page of records, with search, filter, sort and paging.
    private func recordsPage(_ name: String, request: HTTPRequest, visit: Visit) throws -> HTTPResponse {
        let (offset, limit) = try Self.paging(request, limit: 25, most: 500)
        let search = request.queryValue("q").flatMap { $0.isEmpty ? nil : $0 }
        let sort = request.queryValue("sort").flatMap { $0.isEmpty ? nil : $0 }
        let filter = request.queryValue("where").flatMap { $0.isEmpty ? nil : $0 }
        var selection = RecordSelection(search: search, offset: offset, limit: limit + 1)
        selection.names = RecordSelection.Names(conditions: "Filter", sort: "Sort")
        if let sort { selection.sort = [try RecordSelection.SortKey(parsing: sort, option: "Sort")] }
        if let filter { selection.conditions = [try RecordCondition(parsing: filter)] }
        let (form, records, deleted) = try locked { () throws -> (Form, [StoredRecord], String?) in
            let form = try self.form(named: name)
            var records: [StoredRecord] = []
            try workspace.forEachRecord(of: form, selection: selection) { records.append($0) }
            let deleted = deletedKeys.removeValue(forKey: Self.deletedSlot(visit, form))
            return (form, records, deleted)
        }
        let more = records.count > limit
        let base = "/forms/" + Self.pathSegment(form.name)
        func href(offset: Int, sort: String?) -> String {
            var query = ["offset=\(offset)", "limit=\(limit)"]
            if let search { query.append("q=" + Self.queryValue(search)) }
            if let sort { query.append("sort=" + Self.queryValue(sort)) }
            if let filter { query.append("where=" + Self.queryValue(filter)) }
            return base + "?" + query.joined(separator: "&")
        }
        var body = ""
        if let deleted, request.queryValue("deleted") == deleted {
            body += "<div class=\"notice saved\" role=\"status\">Deleted \(HTML.escape(form.title)) \(HTML.escape(deleted)).</div>\n"
        }
        body += "<form class=\"filters\" method=\"get\" action=\"\(HTML.escape(base))\" role=\"search\">\n"
        body += "<label for=\"q\" class=\"visually-hidden\">Search</label><input type=\"search\" id=\"q\" name=\"q\" placeholder=\"Search\" value=\"\(HTML.escape(search ?? ""))\">\n"
        body += "<label for=\"where\" class=\"visually-hidden\">Filter</label><input type=\"search\" id=\"where\" name=\"where\" placeholder=\"Filter: field=value\" value=\"\(HTML.escape(filter ?? ""))\">\n"
        if let sort { body += "<input type=\"hidden\" name=\"sort\" value=\"\(HTML.escape(sort))\">\n" }
        body += "<button type=\"submit\" class=\"secondary\">Find</button>\n"
        // Not for a form where nothing can be typed (a view that is only read).
        if !readOnly, form.takesNewRecords {
            body += "<a class=\"button\" href=\"\(HTML.escape(base))/new\">New record</a>\n"
        }
        body += "</form>\n"
        let shown = Array(records.prefix(limit))
        var table = RecordTableHTML(form: form, records: shown) { base + "/" + Self.pathSegment($0.typedText) }
        table.keyText = { $0.typedText }
        table.labels = try locked { try referenceLabels(form, records: shown) }
        body += table.render { field, _ in
            let typed = RecordSelection.SortKey.typed(field)
            return href(offset: 0, sort: sort == typed ? "-" + typed : typed)
        }
        body += "<nav class=\"pager\" aria-label=\"Pages\">"
        if offset > 0 { body += "<a href=\"\(HTML.escape(href(offset: max(offset - limit, 0), sort: sort)))\" rel=\"prev\">← Previous</a>" }
        if more { body += "<a href=\"\(HTML.escape(href(offset: offset + limit, sort: sort)))\" rel=\"next\">Next →</a>" }
        body += "</nav>\n"
        return .html(200, WebPage(title: form.title, breadcrumbs: [("Forms", "/")], body: body).render())
    }

    /// `/login`: the token (or a user's password) once, then a cookie, and
    /// back to the page first asked for (`next`, `loginAddress(returningTo:)`).
    func login(_ request: HTTPRequest) -> HTTPResponse {
        let existing = visitors.cookieID(request)
        let id = existing ?? WebVisitors.randomToken()
        let cookie = existing == nil ? [WebVisitors.setCookie(id)] : []
        let body = request.method == "POST" ? SubmittedForm(urlencoded: request.body) : nil
        // The address `route` sent the browser here with, then the form's copy of it.
        // Only a path of this server is returned to (`returnPath`): never another site.
        let next = Self.returnPath(body == nil ? request.queryValue("next") : body?.value("next"))
        var problem = ""
        if let body {
            if visitors.checkCSRF(body.value("_csrf"), id: existing),
               let loggedIn = visitors.logIn(user: body.value("user"), secret: body.value("secret") ?? "") {
                // A new id, logged in: the one the browser came with stays logged out (session fixation).
                return .redirect(next ?? "/", headers: [WebVisitors.setCookie(loggedIn)])
            }
            problem = "<p class=\"notice conflict\" role=\"alert\">That did not match. Try again.</p>\n"
        }
        var form = problem + "<form method=\"post\" action=\"/login\" class=\"record\">\n"
        form += "<input type=\"hidden\" name=\"_csrf\" value=\"\(visitors.csrfToken(for: id))\">\n"
        if let next { form += "<input type=\"hidden\" name=\"next\" value=\"\(HTML.escape(next))\">\n" }
        if case .users = visitors.authentication {
            form += "<div class=\"field\"><label for=\"user\">User</label><input type=\"text\" id=\"user\" name=\"user\" autocomplete=\"username\"></div>\n"
            form += "<div class=\"field\"><label for=\"secret\">Password</label><input type=\"password\" id=\"secret\" name=\"secret\" autocomplete=\"current-password\"></div>\n"
        } else {
            form += "<div class=\"field\"><label for=\"secret\">Token</label><input type=\"password\" id=\"secret\" name=\"secret\" autocomplete=\"off\">"
            form += "<p class=\"hint\">The token <code>formstore serve</code> printed when it started.</p></div>\n"
        }
        form += "<div class=\"actions\"><button type=\"submit\">Log in</button></div>\n</form>\n"
        return .html(problem.isEmpty ? 200 : 401, WebPage(title: "Log in", body: form).render(), headers: cookie)
    }

    /// `GET /logout` asks, `POST /logout` (its CSRF token checked) logs the
    /// browser's cookie id out and gives it a new one, logged out too.
    func logout(_ request: HTTPRequest) -> HTTPResponse {
        guard visitors.requiresLogin, let id = visitors.cookieID(request) else { return .redirect("/login") }
        if request.method == "POST" {
            guard visitors.checkCSRF(SubmittedForm(urlencoded: request.body).value("_csrf"), id: id) else {
                return .html(403, WebPage(title: "Refused", body: "<p class=\"notice conflict\" role=\"alert\">This form is out of date or did not come from this server (its CSRF token is missing or wrong). Go back, reload and try again.</p>\n").render())
            }
            visitors.logOut(id: id)
            return .redirect("/login", headers: [WebVisitors.setCookie(WebVisitors.randomToken())])
        }
        var form = "<form method=\"post\" action=\"/logout\" class=\"record\">\n"
        form += "<input type=\"hidden\" name=\"_csrf\" value=\"\(visitors.csrfToken(for: id))\">\n"
        form += "<div class=\"actions\"><button type=\"submit\">Log out</button></div>\n</form>\n"
        return .html(200, WebPage(title: "Log out", body: form).render())
    }

    /// A path segment with everything but unreserved characters percent-encoded.
    /// One segment of a path: every reserved character percent-encoded (a key's
    /// `/` too), the word `new` as `%6Eew`, so a record keyed "new" is not the
    /// new-record page, and `.` and `..` as `%2E` and `%2E%2E`, which a
    /// browser would otherwise resolve away (a table named `..` linked home).
    /// A form's name or a record's key as one segment of an address. `.` and
    /// `..` are written `\.` and `\..` (`HTTPRequest.segments` reads them
    /// back): a browser takes `.`, `..` and their `%2E` spellings as steps up
    /// the path and never sends them.
    static func pathSegment(_ text: String) -> String {
        switch text {
        case "new": return "%6Eew"
        case ".": return "%5C."
        case "..": return "%5C.."
        default: return text.percentEncodedUnreserved()
        }
    }

    static func queryValue(_ text: String) -> String { pathSegment(text) }
}
