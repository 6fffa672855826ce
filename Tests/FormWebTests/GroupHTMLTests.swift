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

    /// A cell holding empty text shows a dim `""`, apart from NULL, as a field does.
    @Test func aCellOfEmptyTextIsShownApartFromNull() throws {
        let html = Self.html(try Self.session(try Self.form(), item: ""))
        #expect(html.contains("name=\"lines[1].item\" id=\"g-lines-1-item\" placeholder=\"&quot;&quot;\""), "\(html)")
        let null = Self.html(try Self.session(try Self.form(), item: "x"))
        #expect(!null.contains("placeholder=\"&quot;&quot;\""))
    }

    /// A secure cell is a password input holding nothing, whatever it
    /// stores: it was a text input with its value, and empty text gave it a
    /// dim `""` that told the secret was empty. The page lists the secure
    /// fields (`_secure`) for a post it may have to hold.
    @Test func aSecureCellIsAPasswordInputThatTellsNothing() throws {
        var form = try Self.form()
        let section = try #require(form.sections.firstIndex { $0.group != nil })
        form.sections[section].group?.fields[0].isSecure = true
        for stored in ["", "ROWSECRET"] {
            let html = Self.html(try Self.session(form, item: stored))
            #expect(html.contains(#"<input type="password" name="lines[1].item" id="g-lines-1-item" value="" autocomplete="new-password">"#),
                    "\(html)")
            #expect(!html.contains("ROWSECRET") && !html.contains("placeholder=\"&quot;&quot;\""), "\(html)")
            #expect(html.contains(#"<input type="hidden" name="_secure" value="[&quot;item&quot;]">"#), "\(html)")
        }
        #expect(PostedName.isSecure("lines[1].item", among: ["item"]))
        #expect(PostedName.isSecure("item", among: ["item"]))
        #expect(!PostedName.isSecure("lines[1].qty", among: ["item"]))
        #expect(!PostedName.isSecure("_csrf", among: ["csrf"]))
        #expect(PostedName.isSecure("__pin", among: ["_pin"]))
    }

    /// A row's cell posted twice is refused, as a field is: the first was taken.
    @Test func aCellPostedTwiceIsRefused() throws {
        let session = try Self.session(try Self.form())
        let body = SubmittedForm(members: [.init(name: "_groups", value: #"["lines"]"#), .init(name: "lines[1]._key", value: "10"),
                                           .init(name: "lines[1].item", value: "x1"), .init(name: "lines[1].item", value: "x2")])
        let result = session.apply(submitted: body)
        #expect(result.refused.map(\.field) == ["lines[1].item"], "\(result)")
        #expect(!session.isGroupDirty("lines"))
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

    /// ↑ moves a row past the one above it on the person's page: when
    /// someone else deleted that one meanwhile, the order of the rest stays
    /// (moving by index put it above a row it was never beside).
    @Test func aRowMovedUpPastARowDeletedMeanwhileKeepsTheOrder() throws {
        let backend = MemoryBackend()
        let stored = backend.put(["id": 1, "customer": "Ann"])
        backend.putRows([["id": 10, "item": "A", "position": 0], ["id": 11, "item": "B", "position": 1],
                         ["id": 13, "item": "D", "position": 3]], group: "lines", of: stored.key)
        let session = try FormSession.open(try Self.form(), key: stored.key, backend: backend)
        // The page was drawn with A, B, C (12, deleted since by someone else), D.
        var members: [SubmittedForm.Member] = [.init(name: "_groups", value: #"["lines"]"#),
            .init(name: "_rows", value: #"{"lines":{"10":{"item":"A"},"11":{"item":"B"},"12":{"item":"C"},"13":{"item":"D"}}}"#)]
        for (place, (key, item)) in [("10", "A"), ("11", "B"), ("12", "C"), ("13", "D")].enumerated() {
            members += [.init(name: "lines[\(place + 1)]._key", value: key), .init(name: "lines[\(place + 1)].item", value: item)]
        }
        let result = session.apply(submitted: SubmittedForm(members: members))
        #expect(try session.perform(RowAction(kind: .up, group: "lines", place: 4), rows: result.postedRows))
        #expect(session.rows("lines").map { $0["item"] } == ["A", "B", "D"])
        // ↓ on B: the row below it on the page is the deleted C, so nothing moves; ↓ on A passes B.
        #expect(try session.perform(RowAction(kind: .down, group: "lines", place: 2), rows: result.postedRows))
        #expect(session.rows("lines").map { $0["item"] } == ["A", "B", "D"])
        #expect(try session.perform(RowAction(kind: .down, group: "lines", place: 1), rows: result.postedRows))
        #expect(session.rows("lines").map { $0["item"] } == ["B", "A", "D"])
    }
}
