import Foundation
import FormCore
@testable import FormWeb
import Testing

/// What a browser is given for a session: structure a screen reader can
/// follow, inputs by kind, errors tied to their fields, modes and conditions
/// honoured, secure values never sent.
@Suite struct FormHTMLTests {
    static let register: Form = {
        Form(name: "register", title: "Register", sections: [
            Section("Account", fields: [
                { var f = Field(key: "name", label: "Name", kind: .name); f.isRequired = true; return f }(),
                Field(key: "password", label: "Password", kind: .password),
            ]),
            Section("Contact", fields: [
                Field(key: "phone", label: "Phone", kind: .phone),
                Field(key: "email", label: "E-mail", kind: .email),
                Field(key: "birthdate", label: "Birthdate", kind: .date),
                Field(key: "age", label: "Age", kind: .integer),
                { var f = Field(key: "country", label: "Country", kind: .choice)
                  f.choices = [Choice("usa", label: "USA"), Choice("de", label: "Germany")]; return f }(),
                Field(key: "news", label: "Newsletter", kind: .bool),
                Field(key: "bio", label: "Bio", kind: .multiline),
            ]),
        ])
    }()

    static func session(_ form: Form = register, values: [String: FieldValue] = [:]) throws -> (FormSession, MemoryBackend) {
        let backend = MemoryBackend()
        var row: [String: FieldValue] = ["id": 1, "name": "Ann", "password": "hunter22", "phone": "5551234567",
                                         "email": "ann@example.com", "birthdate": .date(Date(timeIntervalSince1970: 86_400 * 365)),
                                         "age": 40, "country": "de", "news": true, "bio": "Hi"]
        row.merge(values) { $1 }
        let stored = backend.put(row)
        return (try FormSession.open(form, key: stored.key, backend: backend), backend)
    }

    static func html(_ session: FormSession, readOnly: Bool = false) -> String {
        FormHTML(session, options: .init(action: "/forms/register/1", csrfToken: "tok", readOnly: readOnly)).render()
    }

    /// A list's date and time reads as `show` writes it, with a space; the
    /// form's input keeps the `T` a date-time input takes.
    @Test func aListShowsADateTimeWithASpace() throws {
        let form = Form(name: "e", sections: [Section(fields: [Field(key: "at", kind: .datetime)])])
        let record = StoredRecord(key: RecordKey("id", 1), values: ["at": .date(Date(timeIntervalSince1970: 1_609_500_600))])
        let html = RecordTableHTML(form: form, records: [record]) { _ in "/e/1" }.render()
        #expect(html.contains("<td>2021-01-01 11:30</td>"), "\(html)")
    }

    /// A time a hair under the next second (`12:34:56.999999`) is drawn in
    /// its own second, and a date and time on its own day and year: the
    /// second was written rounded to the millisecond, and the fraction added
    /// to it (`12:34:57.999999`, `2025-01-01T00:00:00.999999`).
    @Test func aTimeJustUnderTheNextSecondIsDrawnInItsOwnSecond() throws {
        let form = Form(name: "e", sections: [Section(fields: [Field(key: "at", kind: .datetime), Field(key: "tm", kind: .time)])])
        let atEnd = Date(timeIntervalSince1970: 1_735_689_599.999999)  // 2024-12-31T23:59:59.999999
        let record = StoredRecord(key: RecordKey("id", 1), values: ["at": .date(atEnd),
                                                                     "tm": .date(Date(timeIntervalSince1970: 45_296.9996))])
        let html = RecordTableHTML(form: form, records: [record]) { _ in "/e/1" }.render()
        #expect(html.contains("<td>2024-12-31 23:59:59.999999</td>"), "\(html)")
        #expect(html.contains("<td>12:34:56.9996</td>") || html.contains("<td>12:34:56.999600</td>"), "\(html)")
    }

    /// The records list shows every stored field, the ninth and later too
    /// (they were left out: a wide table's references and notes were never
    /// seen), in a table that scrolls sideways on a page as wide as the
    /// window allows (`main:has(table.records)`).
    @Test func aListShowsEveryStoredField() throws {
        let fields = (1...12).map { Field(key: "f\($0)", kind: .text) }
        let form = Form(name: "wide", sections: [Section(fields: fields)])
        let record = StoredRecord(key: RecordKey("id", 1), values: Dictionary(uniqueKeysWithValues: fields.map { ($0.key, FieldValue.text("v-" + $0.key)) }))
        let html = RecordTableHTML(form: form, records: [record]) { _ in "/wide/1" }.render()
        for field in fields { #expect(html.contains("<td>v-\(field.key)</td>"), "\(field.key)") }
        #expect(html.contains("<div class=\"table-scroll\"><table class=\"records\">"))
        #expect(WebAssets.stylesheet.contains("main:has(table.records) { max-width: 90rem; }"))
    }

    @Test func sectionsAreFieldsetsAndEveryInputHasALabel() throws {
        let (session, _) = try Self.session()
        let html = Self.html(session)
        #expect(html.contains("<form method=\"post\" action=\"/forms/register/1\""))
        #expect(html.contains("<fieldset>\n<legend>Account</legend>"))
        #expect(html.contains("<fieldset>\n<legend>Contact</legend>"))
        for key in ["name", "password", "phone", "email", "birthdate", "age", "country", "news", "bio"] {
            #expect(html.contains("<label for=\"f-\(key)\">"), "label of \(key)")
            #expect(html.contains("id=\"f-\(key)\""), "input of \(key)")
        }
        #expect(html.contains("name=\"_csrf\" value=\"tok\""))
    }

    @Test func inputsFollowTheKind() throws {
        let (session, _) = try Self.session()
        let html = Self.html(session)
        #expect(html.contains("<input type=\"tel\" name=\"phone\" id=\"f-phone\" value=\"(555) 123-4567\""))
        #expect(html.contains("<input type=\"email\" name=\"email\""))
        #expect(html.contains("<input type=\"date\" name=\"birthdate\" id=\"f-birthdate\" value=\"1971-01-01\""))
        #expect(html.contains("<input type=\"checkbox\" name=\"news\" id=\"f-news\" value=\"on\" checked>"))
        #expect(html.contains("<select name=\"country\" id=\"f-country\">"))
        #expect(html.contains("<option value=\"de\" selected>Germany</option>"))
        #expect(html.contains("<textarea name=\"bio\" id=\"f-bio\" rows=\"4\">\nHi</textarea>"))
        #expect(html.contains("name=\"name\" id=\"f-name\" required aria-required=\"true\""))
    }

    @Test func aFormWithItsWarningOffLetsThePageBeLeftWithoutAsking() throws {
        #expect(!Self.html(try Self.session().0).contains("data-leave-silently"))
        var silent = Self.register
        silent.unsavedChangesWarning = nil
        #expect(Self.html(try Self.session(silent).0).contains(" data-leave-silently"))
        #expect(WebAssets.script.contains("data-leave-silently"))
    }

    @Test func aSecureValueIsNeverSent() throws {
        let (session, _) = try Self.session()
        let html = Self.html(session)
        #expect(!html.contains("hunter22"))
        #expect(html.contains("<input type=\"password\" name=\"password\" id=\"f-password\" value=\"\""))
    }

    @Test func anErrorIsTiedToItsField() throws {
        let (session, _) = try Self.session()
        try session.set("phone", input: "555-12")
        let html = Self.html(session)
        let message = try #require(session.errors("phone").first?.message)
        #expect(html.contains("aria-describedby=\"f-phone-error\" aria-invalid=\"true\""))
        #expect(html.contains("<p class=\"error\" id=\"f-phone-error\">\(message)</p>"))
        // The summary at the top links to the field, and the typed text is kept.
        #expect(html.contains("<a href=\"#f-phone\">\(message)</a>"))
        #expect(html.contains("value=\"555-12\""))
    }

    @Test func hostileValuesAreText() throws {
        let hostile = #"<script>alert("x")</script>'&"><img src=x onerror=alert(1)>"#
        let (session, _) = try Self.session(values: ["name": .text(hostile), "bio": .text("</textarea><script>alert(2)</script>")])
        let html = Self.html(session)
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("&lt;/textarea&gt;&lt;script&gt;alert(2)&lt;/script&gt;</textarea>"))
    }

    @Test func editModeIsReadOnlyUntilEditingBegins() throws {
        var form = Self.register
        form.mode = .edit
        let (session, _) = try Self.session(form)
        let shown = Self.html(session)
        #expect(shown.contains("id=\"f-phone\" value=\"(555) 123-4567\" autocomplete=\"tel\" inputmode=\"tel\" readonly"))
        #expect(shown.contains("<select name=\"country\" id=\"f-country\" disabled>"))
        #expect(!shown.contains("<button type=\"submit\">"))
        try session.beginEditing()
        let editing = Self.html(session)
        #expect(!editing.contains(" readonly"))
        #expect(editing.contains("<button type=\"submit\">Save</button>"))
    }

    @Test func hiddenFieldsAreNotDrawn() throws {
        var form = Self.register
        form.sections[1].fields[5].hiddenWhen = .equals("country", "usa")  // news
        let (session, _) = try Self.session(form, values: ["country": "usa"])
        #expect(!Self.html(session).contains("f-news"))
        try session.set("country", value: "de")
        #expect(Self.html(session).contains("f-news"))
    }

    @Test func aReadOnlyServerDrawsNoSave() throws {
        let (session, _) = try Self.session()
        let html = Self.html(session, readOnly: true)
        #expect(!html.contains("<button"))
        #expect(!html.contains("_base"))
        #expect(html.contains("readonly"))
    }

    @Test func pageLinksItsFilesAndEscapesItsTitle() {
        let page = WebPage(title: "<b>Forms</b>", body: "<p>x</p>").render()
        #expect(page.contains("<title>&lt;b&gt;Forms&lt;/b&gt; · FormStore</title>"))
        #expect(page.contains("<script src=\"/static/formstore.js\" defer></script>"))
        #expect(!page.contains("<script>"))
        #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
    }

    /// A NOT NULL column's field is marked, but the browser is not told to
    /// refuse empty text (the column takes it), and a switch is never marked:
    /// off is a value.
    @Test func aNotNullColumnIsMarkedButTakesEmptyTextAndOff() throws {
        var title = Field(key: "title", label: "Title", kind: .text)
        title.isNotNull = true
        var done = Field(key: "done", label: "Done", kind: .bool)
        done.isNotNull = true
        let form = Form(name: "task", title: "Task", sections: [Section(fields: [title, done])])
        let backend = MemoryBackend()
        let stored = backend.put(["id": 1, "title": "", "done": false])
        let html = Self.html(try FormSession.open(form, key: stored.key, backend: backend))
        // Empty text, drawn apart from NULL by a dim "".
        #expect(html.contains(#"<input type="text" name="title" id="f-title" aria-required="true" value="" placeholder="&quot;&quot;">"#), "\(html)")
        #expect(html.contains(#"<label for="f-title">Title <span class="required" aria-hidden="true">*</span></label>"#))
        #expect(!html.contains(" required"), "\(html)")
        #expect(html.contains(#"<label for="f-done">Done</label>"#), "\(html)")
    }

    /// A date, time or datetime the browser's input cannot hold as it is (a
    /// day that is not, a time past 24:00) is drawn in a text input: the
    /// browser would blank it, and an untouched save store nothing.
    @Test func aDayOrTimeThatIsNotIsDrawnAsText() {
        for (type, text) in [("date", "2024-02-30"), ("date", "0000-00-00"), ("date", "2016-13-01"), ("time", "25:61"),
                             ("time", "24:00:00"), ("time", "23:59:60"), ("datetime-local", "2021-02-29T10:00"),
                             ("datetime-local", "2021-01-01T25:00")] {
            #expect(!FormHTML.browserHolds(type, text), "\(type) \(text)")
        }
        for (type, text) in [("date", "2024-02-29"), ("time", "23:59"), ("time", "00:00:59"), ("datetime-local", "2021-01-01T10:00:05")] {
            #expect(FormHTML.browserHolds(type, text), "\(type) \(text)")
        }
    }
}
