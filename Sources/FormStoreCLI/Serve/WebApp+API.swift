import FormBasics
import FoundationEssentials
import FormCore
import FormStorage
import FormWeb

/// The JSON API for services and scripts: the library's own JSON shapes
/// (`SaveOutcome`, `JSONBodyError`, `FieldConflict`), records with an `ETag`,
/// saves checked with `If-Match`, and a stream of a record's saves.
extension WebApp {
    func api(_ request: HTTPRequest, _ parts: [String], user: String) throws -> HTTPResponse {
        guard parts.count >= 2, parts[0] == "forms" else { return .json(404, Data(#"{"error":"no such resource"}"#.utf8)) }
        let name = parts[1]
        let rest = Array(parts.dropFirst(2))
        // HEAD is GET without the body (which the server leaves out); not of a stream of events, which never ends.
        let method = request.method == "HEAD" && rest.count < 3 ? "GET" : request.method
        let writes = ["POST", "PATCH", "PUT", "DELETE"].contains(method)
        if writes && readOnly {
            return .json(403, Data(#"{"error":"this server is read-only (formstore serve --read-only)"}"#.utf8))
        }
        // A write with a body must say it is JSON: no page of another site can
        // send that without the browser asking first (CSRF). Asked of the
        // resources that take one, so a method no resource takes is a 405.
        let takesBody = (method == "POST" && rest.count == 1) || (method == "PATCH" && rest.count == 2)
            || (method == "POST" && rest.count == 3 && (rest[2] == "undo" || rest[2] == "redo"))
        if takesBody && !Self.isJSON(request.header("content-type")) {
            return .json(415, Data(#"{"error":"send the body as application/json"}"#.utf8))
        }
        if method == "GET", rest.count == 2, rest[0] == "choices" {
            return try choices(name, field: rest[1], search: request.queryValue("search"))
        }
        if method == "POST", rest.count == 3, rest[0] == "records", rest[2] == "undo" || rest[2] == "redo" {
            // The step needs nothing but the address: a body, if any, is `{}`, not whatever came.
            let blank = request.body.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
            let isObject = if case .object? = try? JSONReader.parse(request.body) { true } else { false }
            guard blank || isObject else {
                return .json(400, Data(#"{"error":"the body of an undo or a redo is a JSON object ({}), or nothing"}"#.utf8))
            }
            return try apiUndo(name, key: rest[1], redo: rest[2] == "redo", user: user)
        }
        guard rest.isEmpty || rest[0] == "records", rest.count <= 3, rest.count < 3 || rest[2] == "events" else {
            return .json(404, Data(#"{"error":"no such resource"}"#.utf8))
        }
        let key = rest.count > 1 ? rest[1] : ""
        switch (method, rest.count) {
        case ("GET", 0): return try formDescription(name)
        case ("GET", 1): return try records(name, request: request)
        case ("POST", 1): return try createRecord(name, body: request.body, user: user)
        case ("GET", 2): return try record(name, key: key)
        case ("PATCH", 2): return try patch(name, key: key, request: request, user: user)
        case ("DELETE", 2): return try deleteRecord(name, key: key, request: request)
        case ("GET", 3): return try events(name, key: key, since: request.queryValue("etag"))
        default:
            // What this resource takes: a form, its records, one record, a record's events.
            let allowed = ["GET", "GET, POST", "GET, PATCH, DELETE", "GET"][rest.count]
            return .json(405, Data(#"{"error":"this resource takes \#(allowed)"}"#.utf8), headers: [("Allow", allowed)])
        }
    }

    /// `GET /api/forms/NAME`: `{"spec": …, "schema": …}`.
    private func formDescription(_ name: String) throws -> HTTPResponse {
        let (form, untyped) = try locked { let form = try self.form(named: name); return (form, try workspace.untypedFields(of: form)) }
        var body = Data(#"{"spec":"#.utf8)
        body += try FormSpec.encode(form)
        body += Data(#","schema":"#.utf8)
        body += JSONSchemaExporter.schema(for: form, untyped: untyped)
        body += Data("}".utf8)
        return .json(200, body)
    }


    var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Whether a `Content-Type` is JSON: `application/json`, with parameters
    /// or not (`; charset=utf-8`), and no other type (`application/jsonx`).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return type.filter { $0 != " " && $0 != "\t" }.lowercased() == "application/json"
    }

    /// A page's `offset` (from 0) and `limit` (from 1 to `most`; `limit` when
    /// not given). A value given that is no such whole number is a usage
    /// error (400): `limit=0` returned one record, `limit=abc` the default.
    static func paging(_ request: HTTPRequest, limit: Int, most: Int) throws -> (offset: Int, limit: Int) {
        func read(_ name: String, _ range: ClosedRange<Int>, default value: Int) throws -> Int {
            guard let text = request.queryValue(name), !text.isEmpty else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw CLIError.usage("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }
        return (try read("offset", 0...Int(Int32.max), default: 0), try read("limit", 1...most, default: limit))
    }

    /// `GET /api/forms/NAME/records?limit=&offset=&where=&sort=&q=`.
    private func records(_ name: String, request: HTTPRequest) throws -> HTTPResponse {
        let (offset, limit) = try Self.paging(request, limit: 100, most: 10_000)
        var selection = RecordSelection(search: request.queryValue("q"), offset: offset, limit: limit)
        selection.names = RecordSelection.Names(conditions: "where", sort: "sort")
        selection.conditions = try request.queryValues("where").map(RecordCondition.init(parsing:))
        selection.sort = try request.queryValues("sort").map { try RecordSelection.SortKey(parsing: $0, option: "sort") }
        let rows = try locked { () throws -> [RecordDocument] in
            let form = try self.form(named: name)
            var rows: [RecordDocument] = []
            try workspace.forEachRecord(of: form, selection: selection) { rows.append(RecordDocument($0, form: form, withGroups: false)) }
            return rows
        }
        return .json(200, try encoder.encode(rows))
    }

    func load(_ name: String, key: String) throws -> (Form, StoredRecord?) {
        let form = try self.form(named: name)
        let recordKey = try workspace.recordKey(try KeyArgument(parsing: key), of: form)
        return (form, try workspace.store().load(form, key: recordKey))
    }

    private static let noRecord = Data(#"{"outcome":"notFound"}"#.utf8)

    /// `GET /api/forms/NAME/records/KEY`, with its `ETag`.
    private func record(_ name: String, key: String) throws -> HTTPResponse {
        try locked {
            let (form, record) = try load(name, key: key)
            guard let record else { return .json(404, Self.noRecord) }
            return .json(200, try encoder.encode(RecordDocument(record, form: form, withGroups: true)),
                         headers: [("ETag", served.keep(record, form: form.name))])
        }
    }

    /// `PATCH`: the body's fields through the JSON door, saved if the record
    /// is still the one the client read (`If-Match`).
    private func patch(_ name: String, key: String, request: HTTPRequest, user: String) throws -> HTTPResponse {
        try locked {
            let (loaded, found) = try load(name, key: key)
            guard let record = found else { return .json(404, Self.noRecord) }
            let tag = RecordETag.of(record)
            if let wanted = request.header("if-match"), wanted != "*",
               !wanted.split(separator: ",").contains(where: { $0.trimmingSpaces() == tag }) {
                return .json(412, Data(#"{"error":"the record changed since it was read: GET it again"}"#.utf8), headers: [("ETag", tag)])
            }
            let form = workspace.withSaveStep(loaded)
            // A caller naming the state it read is judged against that state, field by field and row by row.
            var base = record
            if let named = request.header("formstore-base")?.trimmingSpaces(), named != tag {
                guard let read = served.record(form: form.name, tag: named, key: record.key) else {
                    return .json(412, Data(#"{"error":"the record as read is no longer known here: GET it again"}"#.utf8), headers: [("ETag", tag)])
                }
                base = read
            }
            let session = try FormSession.open(form, readAs: base, backend: try workspace.store())
            session.attribution = attribution(user)
            if form.mode == .edit { try session.beginEditing() }
            do throws(JSONBodyError) {
                try session.apply(json: request.body)
            } catch {
                return .json(422, try encoder.encode(error))
            }
            var outcome = try saveOutcome(session)
            // Judged against an older state, a change may be what the record holds already (another
            // writer set it first): the record did not change, and the answer says so.
            if case .saved(let changed, _) = outcome,
               changed.allSatisfy({ form.field($0) != nil && record.values[$0] == session.pristine[$0] }) {
                outcome = .unchanged
            }
            if case .saved = outcome { keepForUndo(session, visitor: Self.apiVisitor(user)) }
            var headers: [(String, String)] = []
            if outcome.isSuccess, let now = try workspace.store().load(form, key: session.key ?? record.key) {
                headers.append(("ETag", served.keep(now, form: form.name)))
            }
            return .json(status(of: outcome), try encoder.encode(outcome), headers: headers)
        }
    }

    /// The session saved; the schema's refusal (a CHECK, a value referring
    /// to no row) as an outcome in the shape of the others.
    private func saveOutcome(_ session: FormSession) throws -> SaveOutcome {
        do {
            return try session.saveKeepingSecretsOut().maskingSecureValues(of: session.form, with: .text(ValueText.mask))
        } catch {
            guard let refused = SaveOutcome(refusal: error, form: session.form) else { throw error }
            return refused
        }
    }

    func status(of outcome: SaveOutcome) -> Int {
        switch outcome {
        case .saved, .unchanged: return 200
        case .invalid: return 422
        case .conflict: return 409
        case .notFound: return 404
        }
    }

    /// `POST /api/forms/NAME/records`: 201 with the new record's `Location`.
    private func createRecord(_ name: String, body: Data, user: String) throws -> HTTPResponse {
        try locked {
            let form = workspace.withSaveStep(try self.form(named: name))
            let session = FormSession.new(form, backend: try workspace.store(), draftPolicy: .none)
            session.attribution = attribution(user)
            do throws(JSONBodyError) {
                try session.apply(json: body)
            } catch {
                return .json(422, try encoder.encode(error))
            }
            let outcome = try saveOutcome(session)
            guard case .saved(_, let key) = outcome else { return .json(status(of: outcome), try encoder.encode(outcome)) }
            let location = "/api/forms/\(Self.pathSegment(form.name))/records/\(Self.pathSegment(key.typedText))"
            return .json(201, try encoder.encode(outcome), headers: [("Location", location)])
        }
    }

    /// `DELETE`: 204, or 412 when `If-Match` names another state of the
    /// record, 422 when rows refer to it (named, as `delete` names them).
    private func deleteRecord(_ name: String, key: String, request: HTTPRequest) throws -> HTTPResponse {
        try locked {
            let (form, found) = try load(name, key: key)
            guard let record = found else { return .json(404, Self.noRecord) }
            let tag = RecordETag.of(record)
            // `If-Match`, or the state a caller names as it does for a PATCH: a record changed since is not deleted.
            if let wanted = request.header("if-match"), wanted != "*", wanted != tag {
                return .json(412, Data(#"{"error":"the record changed since it was read: GET it again"}"#.utf8), headers: [("ETag", tag)])
            }
            if let named = request.header("formstore-base")?.trimmingSpaces(), named != tag {
                return .json(412, Data(#"{"error":"the record changed since it was read: GET it again"}"#.utf8), headers: [("ETag", tag)])
            }
            // As the page and `delete` do: a record others refer to is refused naming them (422).
            try workspace.deleteRecord(of: form, key: KeyArgument(record.key))
            return HTTPResponse(status: 204)
        }
    }
}
