import Foundation
import FormCore
import FormWeb
import Testing

/// A browser's post applied to a session opened for the request: what the
/// person changed is set, what someone else changed meanwhile stands, and a
/// field both changed is a conflict to choose.
@Suite struct SubmissionTests {
    /// The body a browser sends for the page drawn from `session`, with `changes` typed in.
    static func post(from session: FormSession, _ changes: [String: String], dropping: Set<String> = []) -> SubmittedForm {
        let html = FormHTML(session, options: .init(action: "/x")).render()
        var members: [SubmittedForm.Member] = []
        // The hidden members as drawn, then every editable field's shown text.
        for name in ["_base", "_fields"] {
            let marker = "name=\"\(name)\" value=\""
            guard let start = html.range(of: marker) else { continue }
            let rest = html[start.upperBound...]
            let value = String(rest[..<rest.firstIndex(of: "\"")!])
            members.append(.init(name: name, value: unescape(value)))
        }
        let listed = members.first { $0.name == "_fields" }?.value ?? "[]"
        let fields = (try? JSONSerialization.jsonObject(with: Data(listed.utf8))) as? [String] ?? []
        for key in fields where !dropping.contains(key) {
            let field = session.form.field(key)!
            if field.kind == .bool {
                if session.value(key).boolValue == true || changes[key] == "on" {
                    if changes[key] != "off" { members.append(.init(name: PostedName.field(key), value: "on")) }
                }
                continue
            }
            let text = changes[key] ?? (field.isSecure ? "" : shownText(html, key))
            members.append(.init(name: PostedName.field(key), value: text))
        }
        return SubmittedForm(members: members)
    }

    static func shownText(_ html: String, _ key: String) -> String {
        let marker = "name=\"\(PostedName.field(key))\" id=\"f-\(key)\""
        guard let start = html.range(of: marker) else { return "" }
        let rest = html[start.upperBound...]
        if html[..<start.lowerBound].hasSuffix("<textarea "), let open = rest.firstIndex(of: ">"),
           let close = rest.range(of: "</textarea>") {
            // An HTML parser drops a newline right after the start tag.
            var content = rest[rest.index(after: open)..<close.lowerBound]
            if content.first == "\n" { content = content.dropFirst() }
            return unescape(String(content))
        }
        if let value = rest.range(of: "value=\""), rest[..<value.lowerBound].firstIndex(of: ">") == nil {
            let tail = rest[value.upperBound...]
            return unescape(String(tail[..<tail.firstIndex(of: "\"")!]))
        }
        if let selected = rest.range(of: "\" selected") {
            let before = rest[..<selected.lowerBound]
            return unescape(String(before[before.range(of: "value=\"", options: .backwards)!.upperBound...]))
        }
        return ""
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func urlencodedBodiesDecode() {
        let body = SubmittedForm(urlencoded: Data("a=1+2&b=%3Cscript%3E&c=&c=x&d&bad=%ZZ%e2%82%ac&n=%ff".utf8))
        #expect(body.value("a") == "1 2")
        #expect(body.value("b") == "<script>")
        #expect(body.values("c") == ["", "x"])
        #expect(body.value("d") == "")
        #expect(body.value("bad") == "%ZZ€")
        #expect(body.value("n") == "\u{FFFD}")
    }

    @Test func whatThePersonTypedIsSetAndSaved() throws {
        let (session, backend) = try FormHTMLTests.session()
        let body = Self.post(from: session, ["phone": "555 987 6543", "birthdate": "1999-12-31", "country": "usa", "news": "off"])
        let result = session.apply(submitted: body)
        #expect(result.isClean, "\(result)")
        #expect(Set(session.dirtyFields) == ["phone", "birthdate", "country", "news"])
        guard case .saved(let changed, let key) = try session.save() else { Issue.record("not saved"); return }
        #expect(Set(changed) == ["phone", "birthdate", "country", "news"])
        let stored = try #require(backend.record(key))
        #expect(stored.values["phone"] == "5559876543")
        #expect(stored.values["country"] == "usa")
        #expect(stored.values["news"] == false)
        #expect(stored.values["password"] == "hunter22")  // an empty password means unchanged
    }

    /// A field posted twice (`phone=a&phone=b`, a hand-made post) is refused:
    /// the first value was taken and the second passed over without a word.
    @Test func aFieldPostedTwiceIsRefused() throws {
        let (session, _) = try FormHTMLTests.session()
        let drawn = Self.post(from: session, ["phone": "555 987 6543"])
        let body = SubmittedForm(members: drawn.members + [.init(name: "phone", value: "555 000 1111")])
        let result = session.apply(submitted: body)
        #expect(result.refused.map(\.field) == ["phone"], "\(result)")
        #expect(result.refused.first?.message.hasSuffix("was posted more than once: give one value") == true, "\(result)")
        #expect(session.dirtyFields.isEmpty)
        // Any member posted twice, the page's own too (two `_base`s, the first `{}`, took the first).
        let twice = SubmittedForm(members: [.init(name: "_base", value: "{}")] + drawn.members)
        let refusedTwice = session.apply(submitted: twice)
        #expect(refusedTwice.refused.map(\.field) == ["_base"], "\(refusedTwice)")
        #expect(session.dirtyFields.isEmpty)
        // A `_base` that is no such JSON is refused: read as none, every field posted counted as changed.
        let broken = SubmittedForm(members: drawn.members.map { $0.name == "_base" ? .init(name: "_base", value: "[[[[") : $0 })
        let refused = session.apply(submitted: broken)
        #expect(refused.refused.map(\.field) == ["_base"], "\(refused)")
        #expect(session.dirtyFields.isEmpty)
    }

    @Test func inputThatDoesNotParseIsKeptWithItsError() throws {
        let (session, _) = try FormHTMLTests.session()
        let result = session.apply(submitted: Self.post(from: session, ["phone": "555-12"]))
        #expect(result.isClean)
        #expect(session.text("phone") == "555-12")
        guard case .invalid(let errors) = try session.save() else { Issue.record("saved an invalid phone"); return }
        #expect(errors.contains { $0.field == "phone" })
    }

    @Test func anotherWritersChangeToAnUntouchedFieldStands() throws {
        let (page, backend) = try FormHTMLTests.session()
        let body = Self.post(from: page, ["email": "ann@example.org"])
        // Someone else saves the phone while the page is open.
        let other = try FormSession.open(page.form, key: page.key!, backend: backend)
        try other.set("phone", input: "5550001111")
        _ = try other.save()
        let request = try FormSession.open(page.form, key: page.key!, backend: backend)
        let result = request.apply(submitted: body)
        #expect(result.isClean, "\(result)")
        #expect(request.dirtyFields == ["email"])
        _ = try request.save()
        #expect(backend.record(page.key!)?.values["phone"] == "5550001111")
        #expect(backend.record(page.key!)?.values["email"] == "ann@example.org")
    }

    @Test func bothChangingAFieldIsAConflictToChoose() throws {
        let (page, backend) = try FormHTMLTests.session()
        let body = Self.post(from: page, ["phone": "5552223333"])
        let other = try FormSession.open(page.form, key: page.key!, backend: backend)
        try other.set("phone", input: "5550001111")
        _ = try other.save()
        let request = try FormSession.open(page.form, key: page.key!, backend: backend)
        let result = request.apply(submitted: body)
        #expect(result.conflicts == [WebConflict(field: "phone", base: "(555) 123-4567", mine: "5552223333", theirs: "(555) 000-1111")])
        // The conflict form offers both, and choosing "yours" saves it.
        let html = FormHTML(request, options: .init(action: "/x", csrfToken: "t")).conflicts(result.conflicts)
        #expect(html.contains("value=\"5552223333\" checked> Yours"))
        #expect(html.contains("value=\"(555) 000-1111\"> Theirs (saved now)"))
        let again = try FormSession.open(page.form, key: page.key!, backend: backend)
        var members = [SubmittedForm.Member(name: "phone", value: "5552223333"),
                       SubmittedForm.Member(name: "_fields", value: #"["phone"]"#)]
        let base = try #require(html.range(of: "name=\"_base\" value=\""))
        let rest = html[base.upperBound...]
        members.append(.init(name: "_base", value: Self.unescape(String(rest[..<rest.firstIndex(of: "\"")!]))))
        #expect(again.apply(submitted: SubmittedForm(members: members)).isClean)
        _ = try again.save()
        #expect(backend.record(page.key!)?.values["phone"] == "5552223333")
    }

    /// A password both sides changed is drawn with no value of either: left
    /// empty it keeps theirs, typed again it replaces it.
    @Test func aSecureConflictShowsNoPassword() throws {
        let (page, backend) = try FormHTMLTests.session()
        let conflict = WebConflict(FieldConflict(field: "password", base: "hunter22", mine: "mine-secret", theirs: "their-secret"),
                                   in: page.form)
        let html = FormHTML(page, options: .init(action: "/x", csrfToken: "t")).conflicts([conflict])
        for secret in ["hunter22", "mine-secret", "their-secret"] { #expect(!html.contains(secret), "\(html)") }
        #expect(html.contains("<input type=\"password\" name=\"password\""), "\(html)")
        let kept = try FormSession.open(page.form, key: page.key!, backend: backend)
        #expect(kept.apply(submitted: SubmittedForm(members: [.init(name: "password", value: ""),
                                                             .init(name: "_fields", value: #"["password"]"#)])).isClean)
        #expect(kept.dirtyFields.isEmpty)
    }

    /// Two pages typing a new password: the second post finds the first's
    /// save by the keyed digest its `_base` holds in place of the value (it
    /// wrote over it unasked), and the page holds neither password.
    @Test func aPasswordChangedMeanwhileIsAConflict() throws {
        let (page, backend) = try FormHTMLTests.session()
        let html = FormHTML(page, options: .init(action: "/x")).render()
        #expect(!html.contains("hunter22"), "\(html)")
        let first = Self.post(from: page, ["password": "first-new-1"])
        let second = Self.post(from: page, ["password": "second-new-2"])
        let one = try FormSession.open(page.form, key: page.key!, backend: backend)
        #expect(one.apply(submitted: first).isClean)
        _ = try one.save()
        let two = try FormSession.open(page.form, key: page.key!, backend: backend)
        let result = two.apply(submitted: second)
        #expect(result.conflicts.map(\.field) == ["password"])
        #expect(result.conflicts.allSatisfy { $0.base.isEmpty && $0.mine.isEmpty && $0.theirs.isEmpty })
        #expect(backend.record(page.key!)?.values["password"] == "first-new-1")
        // The conflict page's base is the stored record: typed again there, the password is saved.
        let again = try FormSession.open(page.form, key: page.key!, backend: backend)
        let retyped = Self.post(from: again, ["password": "second-new-2"])
        #expect(again.apply(submitted: retyped).isClean)
        _ = try again.save()
        #expect(backend.record(page.key!)?.values["password"] == "second-new-2")
        // Of the record too: another record holding the same password shows another digest.
        let (other, _) = try FormHTMLTests.session(values: ["password": "second-new-2", "id": 7])
        let base = { (session: FormSession) in
            let html = FormHTML(session, options: .init(action: "/x")).render()
            let start = html.range(of: "password&quot;:&quot;")!.upperBound
            return String(html[start...].prefix(32))
        }
        #expect(base(other) != base(again))
    }

    /// Text stored with mixed line breaks, one letter typed at its end: the
    /// browser sends every break as CRLF, and the lines left as they were
    /// keep their own (the LF became CRLF). A line added takes the break of
    /// the line before it.
    @Test func anEditKeepsTheLineBreaksOfTheLinesLeftAlone() throws {
        var note = Field(key: "note", label: "Note", kind: .multiline)
        note.keepsWhitespace = true
        let form = Form(name: "notes", sections: [Section(fields: [note])])
        for (stored, typed, saved) in [("line1\r\nline2\nline3", "line1\r\nline2\r\nline3X", "line1\r\nline2\nline3X"),
                                       ("a\rb\nc", "a\r\nB\r\nc", "a\rB\nc"),
                                       ("one\ntwo", "one\r\ntwo\r\nthree", "one\ntwo\nthree"),
                                       ("x\0y\r\nz", "x\u{FFFD}y\r\nzz", "x\0y\r\nzz")] {
            let (session, _) = try FormHTMLTests.session(form, values: ["note": .text(stored)])
            _ = session.apply(submitted: Self.post(from: session, ["note": typed]))
            #expect(session.value("note") == .text(saved), "\(stored.debugDescription) → \(typed.debugDescription)")
        }
    }

    @Test func aTextareasCRLFLineBreaksAreNoChange() throws {
        let (session, backend) = try FormHTMLTests.session(values: ["bio": "line one\nline two"])
        // Browsers send every line break of a textarea as CRLF.
        let body = Self.post(from: session, ["bio": "line one\r\nline two", "email": "ann@example.org"])
        #expect(session.apply(submitted: body).isClean)
        #expect(session.dirtyFields == ["email"])
        let edited = try FormSession.open(session.form, key: session.key!, backend: backend)
        _ = edited.apply(submitted: Self.post(from: edited, ["bio": "line one\r\nline 2"]))
        #expect(edited.value("bio") == "line one\nline 2")
    }

    /// Text stored with CRLF, a lone CR or mixed line breaks is drawn in a
    /// textarea, and the browser's all-CRLF copy of it sent back is no change.
    @Test(arguments: ["a\r\nb", "a\rb", "line1\nline2\r\nline3\ttab  ", "\r\n lead\r\n"])
    func storedLineBreaksSurviveAnUntouchedPost(_ stored: String) throws {
        var note = Field(key: "note", label: "Note", kind: .text)
        note.keepsWhitespace = true
        let form = Form(name: "notes", sections: [Section(fields: [note])])
        let (session, _) = try FormHTMLTests.session(form, values: ["note": .text(stored)])
        let html = FormHTML(session, options: .init(action: "/x")).render()
        #expect(html.contains("<textarea name=\"note\""), "\(html)")
        // What a browser sends for the untouched textarea: every line break as CRLF.
        let crlf = stored.replacing("\r\n", with: "\n").replacing("\r", with: "\n").replacing("\n", with: "\r\n")
        #expect(session.apply(submitted: Self.post(from: session, ["note": crlf])).isClean)
        #expect(session.dirtyFields.isEmpty && session.value("note") == .text(stored))
    }

    /// Text starting with a line break keeps it through the page (a parser
    /// drops the newline right after a textarea's start tag), and a NUL,
    /// drawn and posted back as U+FFFD, is no change.
    @Test(arguments: ["\nleading break", "\n\ntwo", "a\0b", "\n\0\r\nboth"])
    func whatABrowserAlwaysChangesIsNoChange(_ stored: String) throws {
        var note = Field(key: "note", label: "Note", kind: .multiline)
        note.keepsWhitespace = true
        var title = Field(key: "title", label: "Title", kind: .text)
        title.keepsWhitespace = true
        let form = Form(name: "notes", sections: [Section(fields: [note, title])])
        let (session, _) = try FormHTMLTests.session(form, values: ["note": .text(stored), "title": .text("x\0y")])
        let html = FormHTML(session, options: .init(action: "/x")).render()
        #expect(!html.unicodeScalars.contains("\0"))
        // What a browser sends back: the textarea's text without the newline
        // after its tag, line breaks as CRLF; U+FFFD where the page drew a NUL.
        let shown = Self.shownText(html, "note")
        #expect(shown == stored.replacing("\0", with: "\u{FFFD}"))
        #expect(Self.shownText(html, "title") == "x\u{FFFD}y")
        let crlf = shown.replacing("\r\n", with: "\n").replacing("\n", with: "\r\n")
        let posted = Self.post(from: session, ["note": crlf])
        #expect(session.apply(submitted: posted).isClean)
        #expect(session.dirtyFields.isEmpty && session.value("note") == .text(stored) && session.value("title") == "x\0y")
        // Typed over, the text is the person's.
        #expect(session.apply(submitted: Self.post(from: session, ["title": "x\u{FFFD}z"])).isClean)
        #expect(session.value("title") == "x\u{FFFD}z")
    }

    @Test func keysWithSpacesAndQuotesSurviveTheBrowser() throws {
        let form = Form(name: "odd", sections: [Section(fields: [Field(key: "line no", kind: .integer), Field(key: #"say "hi""#)])])
        let backend = MemoryBackend()
        let stored = backend.put(["id": 1, "line no": 1, #"say "hi""#: "x"])
        let session = try FormSession.open(form, key: stored.key, backend: backend)
        let body = Self.post(from: session, ["line no": "2", #"say "hi""#: "y"])
        #expect(session.apply(submitted: body).isClean)
        #expect(Set(session.dirtyFields) == ["line no", #"say "hi""#])
    }

    /// Fields named as the page's own members (columns `_csrf`, `_base`,
    /// `_fields`) are posted under names of their own: a post changing
    /// another field changes that field alone. Before, `_csrf` took the
    /// page's token, `_base` its base JSON, and `_fields` lost the edit.
    @Test func fieldsNamedAsThePagesOwnMembersAreNotTakenForThem() throws {
        let form = Form(name: "odd", sections: [Section(fields: ["_csrf", "_base", "_fields", "__x", "x"].map { Field(key: $0) })])
        let backend = MemoryBackend()
        let stored = backend.put(["id": 1, "_csrf": "c", "_base": "b", "_fields": "f", "__x": "u", "x": "x"])
        let session = try FormSession.open(form, key: stored.key, backend: backend)
        let html = FormHTML(session, options: .init(action: "/x", csrfToken: "token")).render()
        #expect(html.contains(#"name="__csrf" id="f-_csrf""#) && html.contains(#"name="___x" id="f-__x""#))
        let body = SubmittedForm(members: [.init(name: "_csrf", value: "token")] + Self.post(from: session, ["x": "y"]).members)
        #expect(session.apply(submitted: body).isClean)
        #expect(session.dirtyFields == ["x"])
        // A script's post without `_fields` names fields the same way.
        let again = try FormSession.open(form, key: stored.key, backend: backend)
        let script = SubmittedForm(members: [.init(name: "_csrf", value: "token"), .init(name: "__base", value: "B"), .init(name: "x", value: "z")])
        #expect(again.apply(submitted: script).isClean)
        #expect(Set(again.dirtyFields) == ["_base", "x"] && again.value("_base") == "B")
    }

    @Test func aChangedReadOnlyFieldIsRefused() throws {
        var form = FormHTMLTests.register
        form.sections[0].fields[0].isReadOnly = true
        let (session, _) = try FormHTMLTests.session(form)
        let body = SubmittedForm(members: [.init(name: "name", value: "Mallory"), .init(name: "phone", value: "5550001111")])
        let result = session.apply(submitted: body)
        #expect(result.refused.map(\.field) == ["name"])
        #expect(session.value("name") == "Ann")
    }

    @Test func anUnknownFieldIsRefused() throws {
        let (session, _) = try FormHTMLTests.session()
        let result = session.apply(submitted: SubmittedForm(members: [.init(name: "admin", value: "1")]))
        #expect(result.refused.map(\.field) == ["admin"])
    }

    @Test func outcomesAreNoticesForPeople() {
        let form = FormHTMLTests.register
        #expect(FormHTML.notice(.saved(changed: ["phone"], key: RecordKey("id", 1)), form: form)
                == "<div class=\"notice saved\" role=\"status\">Saved: Phone.</div>\n")
        #expect(FormHTML.notice(.unchanged, form: form).contains("Nothing changed."))
        #expect(FormHTML.notice(.conflict([]), form: form).contains("role=\"alert\""))
    }
}
