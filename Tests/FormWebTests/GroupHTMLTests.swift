import Foundation
import FormCore
import FormWeb
import Testing

/// A repeating group as FormWeb draws it: every value escaped, buttons only
/// where the rows may change, and a post's rows applied with a three-way merge.
@Suite struct GroupHTMLTests {
    static func form(mode: String = "save") throws -> Form {
        try FormSpec.decode(Data("""
            {"formstore": 1, "name": "invoice", "title": "Invoice", "table": "invoice", "primaryKey": ["id"], "mode": "\(mode)",
             "sections": [
               {"fields": [{"key": "customer", "label": "Customer", "kind": "text"}]},
               {"title": "Lines <b>", "fields": [{"key": "item", "label": "Item", "kind": "text"}],
                "group": {"key": "lines", "table": "invoice_line", "foreignKey": ["invoice_id"], "orderColumn": "position"}}]}
            """.utf8))
    }

    static func session(_ form: Form, item: String = "Tea") throws -> FormSession {
        let backend = MemoryBackend()
        let stored = backend.put(["id": 1, "customer": "Ann"])
        backend.putRows([["id": 10, "item": .text(item), "position": 1]], group: "lines", of: stored.key)
        return try FormSession.open(form, key: stored.key, backend: backend)
    }

    static func html(_ session: FormSession, readOnly: Bool = false) -> String {
        FormHTML(session, options: .init(action: "/forms/invoice/1", csrfToken: "tok", readOnly: readOnly)).render()
    }

    @Test func aStoredScriptInARowIsShownAsText() throws {
        let html = Self.html(try Self.session(try Self.form(), item: "<script>alert(1)</script>"))
        #expect(html.contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;\""))
        #expect(!html.contains("<script>"))
        #expect(html.contains("<legend>Lines &lt;b&gt;</legend>"))
    }

    @Test func rowsAreReadOnlyWithoutButtonsWhereTheyMayNotChange() throws {
        for (session, readOnly) in [(try Self.session(try Self.form()), true), (try Self.session(try Self.form(mode: "edit")), false)] {
            let html = Self.html(session, readOnly: readOnly)
            #expect(html.contains("name=\"lines[1].item\" id=\"g-lines-1-item\" value=\"Tea\" readonly"), "\(html)")
            #expect(!html.contains("name=\"_row\"") && !html.contains("name=\"_groups\"") && !html.contains("._key"))
        }
    }

    @Test func aPostedRowIsSetAndARowLeftOutIsRemoved() throws {
        let session = try Self.session(try Self.form())
        let page = Self.html(session)
        #expect(page.contains("name=\"_rows\" value=\"{&quot;lines&quot;:{&quot;10&quot;:{&quot;item&quot;:&quot;Tea&quot;}}}\""), "\(page)")
        let fresh = try Self.session(try Self.form())
        let body = SubmittedForm(members: [
            .init(name: "_groups", value: #"["lines"]"#), .init(name: "_rows", value: #"{"lines":{"10":{"item":"Tea"}}}"#),
            .init(name: "lines[1]._key", value: ""), .init(name: "lines[1].item", value: "Jam"),
        ])
        let result = fresh.apply(submitted: body)
        #expect(result.isClean)
        #expect(fresh.rows("lines").map { $0["item"] } == ["Jam"])
        #expect(fresh.removedRows("lines").map { $0["item"] } == ["Tea"])
        #expect(try fresh.perform(RowAction(kind: .add, group: "lines", place: 0), rows: result.postedRows))
        #expect(fresh.rows("lines").count == 2)
        #expect(try !fresh.perform(RowAction(kind: .remove, group: "lines", place: 7), rows: result.postedRows), "no such row: nothing done")
    }
}
