import FormCore
import FormStorage
import FormStoreTestSupport
import FormWeb
import Foundation
import Testing

/// docs/web.md's "FormWeb in any Swift server" example, compiled and run
/// here on a database made as an application makes its own. The test fails
/// when the doc's ```swift block and the lines between the markers differ.
@Suite struct WebDocsExampleTests {
    static let spec = #"""
        {"formstore": 1, "name": "people", "title": "People", "table": "people", "primaryKey": ["id"],
         "sections": [
           {"fields": [{"key": "name", "label": "Name", "kind": "text", "required": true},
                       {"key": "age", "label": "Age", "kind": "integer"}]},
           {"title": "Pets", "fields": [{"key": "name", "label": "Pet", "kind": "text", "required": true}],
            "group": {"key": "pets", "table": "pet", "foreignKey": ["person_id"], "orderColumn": "position"}}]}
        """#

    /// Runs the example's two functions the way a server would.
    func exercise(path: String) throws -> [String] {
        // DOCS-BEGIN
        /// GET: the record as a page.
        func page(form: Form, key: RecordKey, store: FormStore, csrf: String) throws -> String {
            let session = try FormSession.open(form, key: key, backend: store)
            let html = FormHTML(session, options: .init(action: "/people/\(key)", csrfToken: csrf)).render()
            return WebPage(title: form.title, body: html).render()
        }

        /// POST: what the person changed, saved; the form again with errors, a
        /// choice per conflict, or (a row button: Add, Remove, Move) its rows changed.
        func post(form: Form, key: RecordKey, store: FormStore, body: Data, csrf: String) throws -> (status: Int, html: String) {
            let session = try FormSession.open(form, key: key, backend: store)
            let submitted = SubmittedForm(urlencoded: body)
            let result = session.apply(submitted: submitted)
            var options = FormHTML.Options(action: "/people/\(key)", csrfToken: csrf)
            if !result.conflicts.isEmpty { return (409, FormHTML(session, options: options).conflicts(result.conflicts)) }
            if let action = RowAction(submitted) {
                try session.perform(action, rows: result.postedRows)
                options.drawnFrom = submitted  // nothing saved yet: the base stays what the person first saw
                return (200, FormHTML(session, options: options).render())
            }
            switch try session.save() {
            case .saved, .unchanged: return (303, "")
            default: return (422, FormHTML(session, options: options).render())
            }
        }
        // DOCS-END
        let store = try FormStore(path: path)
        try store.database.write { db in
            try db.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER)")
            try db.execute("CREATE TABLE pet (id INTEGER PRIMARY KEY, person_id INTEGER NOT NULL REFERENCES people(id), position INTEGER NOT NULL, name TEXT NOT NULL)")
            try db.execute("INSERT INTO people VALUES (1, 'Ann', 40)")
            try db.execute("INSERT INTO pet VALUES (5, 1, 1, 'Rex')")
        }
        let form = try FormSpec.decode(Data(Self.spec.utf8))
        let key = RecordKey("id", .int(1))
        func body(_ text: String) -> Data { Data(text.utf8) }
        func rows() throws -> String {
            try store.database.read { db in
                try db.fetchValue(String.self, "SELECT group_concat(line, ' ') FROM (SELECT position || '|' || name AS line FROM pet WHERE person_id = 1 ORDER BY position)") ?? ""
            }
        }
        var seen: [String] = []
        let shown = try page(form: form, key: key, store: store, csrf: "t0ken")
        seen.append(shown.contains("<label for=\"f-name\">Name") && shown.contains("value=\"Rex\"") ? "page" : shown)
        let invalid = try post(form: form, key: key, store: store, body: body("age=forty"), csrf: "t0ken")
        seen.append("\(invalid.status) \(invalid.html.contains("aria-invalid=\"true\""))")
        let saved = try post(form: form, key: key, store: store, body: body("name=Bo&age=41"), csrf: "t0ken")
        seen.append("\(saved.status)")
        let rowsBase = "_groups=%5B%22pets%22%5D&_rows=%7B%22pets%22%3A%7B%225%22%3A%7B%22name%22%3A%22Rex%22%7D%7D%7D&pets%5B1%5D._key=5&pets%5B1%5D.name=Rex"
        let added = try post(form: form, key: key, store: store, body: body(rowsBase + "&_row=add+0+pets"), csrf: "t0ken")
        seen.append("\(added.status) \(added.html.contains("name=\"pets[2].name\""))")
        let withRow = try post(form: form, key: key, store: store, body: body(rowsBase + "&pets%5B2%5D._key=&pets%5B2%5D.name=Tom"), csrf: "t0ken")
        seen.append("\(withRow.status) \(try rows())")
        let conflict = try post(form: form, key: key, store: store, body: body("_base=%7B%22name%22%3A%22Cy%22%7D&name=Dee"), csrf: "t0ken")
        seen.append("\(conflict.status) \(conflict.html.contains("Theirs (saved now): <q>Bo</q>"))")
        return seen
    }

    @Test func theDocsExampleIsThisCodeAndRuns() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let region = source.components(separatedBy: "// DOCS-BEGIN\n")[1].components(separatedBy: "        // DOCS-END")[0]
        let code = region.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n")
        let expected = "```swift\nimport Foundation\nimport FormCore\nimport FormStorage\nimport FormWeb\n\n" + code + "```"
        let docs = try String(contentsOfFile: packageRoot + "/docs/web.md", encoding: .utf8)
        #expect(docs.contains(expected), "docs/web.md's FormWeb example differs from WebDocsExampleTests")

        let path = NSTemporaryDirectory() + "formstore-web-docs-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let seen = try exercise(path: path)
        #expect(seen == ["page", "422 true", "303", "200 true", "303 1|Rex 2|Tom", "409 true"], "\(seen)")
    }
}
