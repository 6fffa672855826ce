import Foundation
import Testing
@testable import FormCore

@Suite struct ValidationTests {
    func errors(_ field: Field, _ value: FieldValue, values: [String: FieldValue] = [:], in form: Form? = nil) -> [FieldError] {
        let form = form ?? Form("f") { Section { field; Field("Other", key: "other") } }
        return form.validate(field: field, value: value, values: values, now: testNow)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let field: Field
        let bad: FieldValue
        let good: FieldValue
        let code: String
        let message: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "required", field: Field("Name", key: "name").required(), bad: "", good: "Ada",
             code: "required", message: "Name is required"),
        Case(name: "required switch", field: Field("Accept", key: "accept", kind: .bool).required(), bad: false, good: true,
             code: "required", message: "Accept is required"),
        Case(name: "minLength", field: Field("Username", key: "u").minLength(4), bad: "abc", good: "abcd",
             code: "minLength", message: "Username must be at least 4 characters"),
        Case(name: "maxLength", field: Field("Code", key: "c").maxLength(3), bad: "abcd", good: "abc",
             code: "maxLength", message: "Code must be at most 3 characters"),
        Case(name: "pattern", field: Field("Code", key: "c").pattern("[A-Z]{3}", name: "airport code"), bad: "AB1", good: "ABC",
             code: "pattern", message: "Code is not a valid airport code"),
        Case(name: "unnamed pattern", field: Field("Code", key: "c").pattern("[0-9]+"), bad: "12a", good: "12",
             code: "pattern", message: "Code is not in the expected format"),
        Case(name: "email rule", field: Field("E-mail", key: "e").email(), bad: "ada@", good: "ada@example.com",
             code: "email", message: "E-mail is not a valid e-mail address"),
        Case(name: "email kind", field: Field("E-mail", key: "e", kind: .email), bad: "ada.example.com", good: "a@b.io",
             code: "email", message: "E-mail is not a valid e-mail address"),
        Case(name: "state kind", field: Field("State", key: "s", kind: .state), bad: "CAL", good: "CA",
             code: "state", message: "State must be a two-letter state abbreviation"),
        Case(name: "zip kind", field: Field("ZIP", key: "z", kind: .zip), bad: "1234", good: "12345",
             code: "zip", message: "ZIP must be a 5-digit ZIP code"),
        Case(name: "phone kind", field: Field("Phone", key: "p", kind: .phone), bad: "12345", good: "5551234567",
             code: "phone", message: "Phone is not a valid phone number"),
        Case(name: "url kind", field: Field("Site", key: "u", kind: .url), bad: "not a url", good: "https://swift.org",
             code: "url", message: "Site is not a valid URL"),
        Case(name: "range", field: Field("Age", key: "a", kind: .integer).range(0...119), bad: 120, good: 119,
             code: "range", message: "Age must be between 0 and 119"),
        Case(name: "range min", field: Field("Price", key: "p", kind: .decimal).range(min: 0.5), bad: 0.25, good: 0.5,
             code: "range", message: "Price must be at least 0.5"),
        Case(name: "range max", field: Field("Count", key: "n", kind: .integer).range(max: 10), bad: 11, good: 10,
             code: "range", message: "Count must be at most 10"),
        Case(name: "choice kind, disabled choice", field: Field("Size", key: "s", kind: .choice)
                .choices([(value: "s", label: "Small", disabled: false), (value: "xl", label: "Huge", disabled: true)]),
             bad: "xl", good: "s", code: "choice", message: "Size is not one of the choices"),
        Case(name: "oneOfChoices", field: Field("Size", key: "s").choices(["s", "m"]).oneOfChoices(), bad: "l", good: "m",
             code: "choice", message: "Size is not one of the choices"),
        Case(name: "multichoice", field: Field("Foods", key: "f", kind: .multichoice).choices(["pizza", "sushi"]),
             bad: .list(["pizza", "kale"]), good: .list(["pizza"]), code: "choice", message: "\"kale\" is not one of the choices for Foods"),
        Case(name: "equalTo", field: Field("Repeat", key: "r").equalTo("other"), bad: "x", good: "same",
             code: "equalTo", message: "Repeat must match Other"),
        Case(name: "maxFutureDays", field: Field("Due", key: "d", kind: .date).maxFutureDays(7),
             bad: .date(testNow.addingTimeInterval(8 * 86_400)), good: .date(testNow.addingTimeInterval(6 * 86_400)),
             code: "maxFutureDays", message: "Due must be at most 7 days in the future"),
        Case(name: "not in the future", field: Field("Birthdate", key: "b", kind: .date).maxFutureDays(0),
             bad: .date(testNow.addingTimeInterval(60)), good: .date(date("1990-01-01")),
             code: "maxFutureDays", message: "Birthdate must not be in the future"),
        Case(name: "custom", field: Field("Even", key: "n", kind: .integer).custom("even") { ($0.intValue ?? 1) % 2 == 0 },
             bad: 3, good: 4, code: "even", message: "Even is not valid"),
        Case(name: "custom with its message", field: Field("Even", key: "n", kind: .integer)
                .custom("even", message: "{label} must be even") { ($0.intValue ?? 1) % 2 == 0 },
             bad: 3, good: 4, code: "even", message: "Even must be even"),
    ]

    @Test(arguments: cases)
    func eachRuleRejectsWithItsMessage(_ c: Case) {
        #expect(errors(c.field, c.bad, values: ["other": "same"]) == [FieldError(field: c.field.key, code: c.code, message: c.message)])
        #expect(errors(c.field, c.good, values: ["other": "same"]).isEmpty)
    }

    @Test func emptyOptionalValuesAreOnlyCheckedByRequired() {
        let field = Field("Age", key: "age", kind: .integer).range(0...119).minLength(3)
        #expect(errors(field, .null).isEmpty)
        #expect(errors(field.required(), .null).map(\.code) == ["required"])
    }

    @Test func messagePriorityIsFieldThenKindThenFormThenRuleThenCatalog() throws {
        let rule = CustomRule(code: "even", message: "rule: {label}") { ($0.intValue ?? 1) % 2 == 0 }
        func message(field: Bool, kind: Bool, form: Bool) throws -> String {
            var f = Field("Count", key: "n", kind: .integer).rule(.custom(rule))
            if field { f = f.message("even", "field: {label}") }
            var built = Form("f") { Section { f } }
            if kind { built = built.message("even", "kind: {label}", kind: .integer) }
            if form { built = built.message("even", "form: {label}") }
            let errors = built.validate(field: f, value: 3, values: [:])
            return try #require(errors.first).message
        }
        #expect(try message(field: true, kind: true, form: true) == "field: Count")
        #expect(try message(field: false, kind: true, form: true) == "kind: Count")
        #expect(try message(field: false, kind: false, form: true) == "form: Count")
        #expect(try message(field: false, kind: false, form: false) == "rule: Count")

        // Without a rule message the catalog's English default is last.
        let plain = Field("Name", key: "name").required()
        #expect(Form("f") { Section { plain } }.validate(field: plain, value: "", values: [:]).first?.message == "Name is required")
        let overridden = Form("f") { Section { plain } }.message("required", "Please fill in {label}")
        #expect(overridden.validate(field: plain, value: "", values: [:]).first?.message == "Please fill in Name")
    }

    @Test func formRulesBlameTheirField() {
        let form = Form("f") {
            Section {
                Field("Password", key: "password", kind: .password)
                Field("Password 2", key: "password2", kind: .password).stored(false)
            }
        }
        .rule(.fieldsEqual("password2", other: "password"))
        .rule(.custom(CustomFormRule(code: "weak", field: "password", message: "{label} is too weak") {
            ($0["password"]?.textValue?.count ?? 0) >= 6
        }))
        #expect(form.validateRules(values: ["password": "abc", "password2": "abd"]) == [
            FieldError(field: "password2", code: "mismatch", message: "Password 2 does not match Password"),
            FieldError(field: "password", code: "weak", message: "Password is too weak"),
        ])
        #expect(form.validateRules(values: ["password": "abcdef", "password2": "abcdef"]).isEmpty)
    }

    @Test func aRuleBlamingTheFormWithoutAMessageNamesTheFormAndItself() {
        let form = Form("trip", title: "Trip") {
            Section {
                Field("From", key: "from", kind: .date)
                Field("To", key: "to", kind: .date)
            }
        }
        .rule(.custom(CustomFormRule(code: "datesInOrder", field: nil) { _ in false }))
        #expect(form.validateRules(values: [:]).map(\.message) == ["Trip is not valid: it fails the rule datesInOrder"])
        // A catalog code, or the form's own words, are taken as they are.
        #expect(form.message("datesInOrder", "The trip ends before it starts").validateRules(values: [:]).map(\.message)
                == ["The trip ends before it starts"])
    }

    @Test func hiddenFieldsAreSkippedAndLeftOutOfTheValues() {
        let form = Form("f") {
            Section {
                Field("Has pet", key: "hasPet", kind: .bool)
                Field("Pet name", key: "petName").required().hidden(when: .not(.equals("hasPet", true)))
                Field("Vet", key: "vet").required().hidden(when: .any([.isEmpty("petName"), .editing]))
            }
        }
        let without: [String: FieldValue] = ["hasPet": false, "petName": "Rex", "vet": ""]
        #expect(form.validateAll(values: without, editing: false).isEmpty)
        #expect(form.visibleValues(without, editing: false) == ["hasPet": false])

        let with: [String: FieldValue] = ["hasPet": true, "petName": "", "vet": ""]
        #expect(form.validateAll(values: with, editing: false).map(\.field) == ["petName"])
        #expect(form.visibleValues(["hasPet": true, "petName": "Rex", "vet": "Dr. No"], editing: false).count == 3)
        #expect(form.visibleValues(["hasPet": true, "petName": "Rex", "vet": "Dr. No"], editing: true).keys.sorted() == ["hasPet", "petName"])
    }

    @Test func aConditionIsExplainedInTheFormsWords() {
        let form = Form("f") {
            Section {
                Field("Country", key: "country", kind: .choice).choices([(value: "usa", label: "USA"), (value: "de", label: "Germany")])
                Field("ZIP", key: "zip")
                Field("Newsletter", key: "news", kind: .bool)
            }
        }
        #expect(form.explain(.equals("country", "usa")) == "Country is \"USA\"")
        #expect(form.explain(.not(.equals("country", "de"))) == "Country is not \"Germany\"")
        #expect(form.explain(.all([.isEmpty("zip"), .not(.editing)])) == "ZIP is empty and not while editing")
        #expect(form.explain(.any([.equals("news", true), .all([.isNotEmpty("zip"), .editing])]))
                == "Newsletter is \"yes\" or (ZIP is not empty and while editing)")
        #expect(form.explain(.equals("gone", .null)) == "gone is empty")
    }

    @Test func disabledAndEditableFollowConditionsAndMode() throws {
        let form = Form("f") {
            Section {
                Field("Country", key: "country")
                Field("State", key: "state", kind: .state).disabled(when: .notEquals("country", "usa"))
                Field("Id", key: "id").readOnly()
                Field("Newsletter", key: "newsletter", kind: .bool).enabledWhenNotEditing()
            }
        }.mode(.frozen)
        let state = try #require(form.field("state"))
        #expect(form.isDisabled(state, values: ["country": "de"]))
        #expect(!form.isDisabled(state, values: ["country": "usa"]))
        let session = FormSession.new(form, backend: MemoryBackend())
        #expect(session.whyNotEditable("id") == "is read-only")
        #expect(session.whyNotEditable("state") == "is disabled")
        #expect(session.whyNotEditable("country") == "cannot be changed: the form is frozen")
        #expect(session.whyNotEditable("newsletter") == nil)
    }

    @Test func displayOnlyFieldsAreNeverValidated() {
        let action = Field(action: "delete", "Delete", style: .destructive).required()
        #expect(errors(action, .null).isEmpty)
    }

    @Test func timingIsTheFieldsOwnElseTheForms() throws {
        let form = Form("f") {
            Section {
                Field("A", key: "a")
                Field("B", key: "b").validation(.onChange)
            }
        }.validationTiming(.onSave)
        #expect(try #require(form.field("a")).effectiveTiming(in: form) == .onSave)
        #expect(try #require(form.field("b")).effectiveTiming(in: form) == .onChange)
    }

    @Test func catalogFillsPlaceholders() {
        #expect(MessageCatalog.fill("{label} must be at least {min} characters", with: ["label": "Name", "min": "2"])
                == "Name must be at least 2 characters")
        #expect(MessageCatalog.fill("{unknown} and {open", with: [:]) == "{unknown} and {open")
    }

    @Test func catalogFillsPlaceholdersAmongAnyText() {
        #expect(MessageCatalog.fill("«{label}» 🙂 braucht {min} Zeichen, {über}", with: ["label": "Größe", "min": "2"])
                == "«Größe» 🙂 braucht 2 Zeichen, {über}")
    }

    /// Length rules count what a person sees as one character, however many bytes or scalars it is.
    @Test(arguments: [
        ("e\u{301}", 1), ("👍🏽", 1), ("\r\n", 1), ("a\r\nb", 3), ("Ærø", 3), ("ab", 2), ("a\rb", 3),
    ])
    func lengthRulesCountCharacters(text: String, characters: Int) {
        let atLeast = Field("Name", key: "name").minLength(characters + 1)
        let atMost = Field("Name", key: "name").maxLength(characters)
        #expect(errors(atLeast, .text(text)).map(\.code) == ["minLength"])
        #expect(errors(atMost, .text(text)).isEmpty)
        #expect(errors(Field("Name", key: "name").maxLength(characters - 1), .text(text)).map(\.code) == ["maxLength"])
    }
}
