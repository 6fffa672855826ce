import Testing
@testable import FormCore

/// A stored value that already breaks a rule on a field nobody touched is a
/// warning, not an error; once the field is changed, it is validated. New
/// records validate every field.
@Suite struct UntouchedValueTests {
    let key = RecordKey("id", 1)

    /// A customers form over a row another application wrote: its e-mail was
    /// never valid and its required name is empty.
    func customers(mode: EditMode = .save, rules: [FormRule] = []) -> (Form, MemoryBackend) {
        var id = Field(key: "id", label: "ID", kind: .integer)
        id.isReadOnly = true
        var name = Field(key: "name", label: "Name", kind: .name)
        name.isRequired = true
        let email = Field(key: "email", label: "Email", kind: .email)
        let city = Field(key: "city", label: "City")
        let repeatCity = Field(key: "repeatCity", label: "Repeat city")
        var form = Form(name: "customers", title: "Customers", sections: [
            Section(nil, fields: [id, name, email, city, repeatCity]),
        ])
        form.mode = mode
        form.rules = rules
        form.table = "customers"
        form.primaryKey = ["id"]
        let backend = MemoryBackend(keyColumns: ["id"])
        backend.put(["id": 1, "name": "", "email": "not-an-email", "city": "Warszawa", "repeatCity": "Warszawa"])
        return (form, backend)
    }

    @Test func anUntouchedBrokenValueIsAWarningAndTheChangeIsSaved() throws {
        let (form, backend) = customers()
        let session = try FormSession.open(form, key: key, backend: backend)
        var heard: [SessionEvent] = []
        session.observe { heard.append($0) }
        try session.set("city", input: "Kraków")
        #expect(try session.save() == .saved(changed: ["city"], key: key))
        #expect(backend.record(key)?.values["city"] == "Kraków")
        #expect(backend.record(key)?.values["email"] == "not-an-email", "left as it was stored")
        #expect(session.warnings.map(\.field) == ["name", "email"])
        #expect(session.warnings("email").map(\.message) == ["Email is not a valid e-mail address"])
        #expect(session.warnings("name").map(\.code) == ["required"])
        #expect(session.allErrors.isEmpty)
        #expect(heard.contains(.warningsChanged))
    }

    @Test func aTouchedFieldIsValidated() throws {
        let (form, backend) = customers()
        let session = try FormSession.open(form, key: key, backend: backend)
        try session.set("email", input: "still-bad")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("a changed invalid e-mail was saved")
            return
        }
        #expect(errors.map(\.field) == ["email"])
        #expect(session.warnings.map(\.field) == ["name"], "the name was not touched")
        #expect(backend.record(key)?.values["email"] == "not-an-email")

        try session.set("email", input: "ann@example.com")
        #expect(try session.save().isSuccess)
        #expect(session.warnings.map(\.field) == ["name"])
    }

    @Test func leavingAnUntouchedFieldWarnsWithoutAnError() throws {
        let (form, backend) = customers()
        let session = try FormSession.open(form, key: key, backend: backend)
        session.commit("email")
        #expect(session.errors("email").isEmpty)
        #expect(session.warnings("email").map(\.code) == ["email"])
        try session.set("email", input: "still-bad")
        session.commit("email")
        #expect(session.errors("email").map(\.code) == ["email"])
        #expect(session.warnings("email").isEmpty)
    }

    @Test func typingTheStoredValueBackMakesItAWarningAgain() throws {
        let (form, backend) = customers()
        let session = try FormSession.open(form, key: key, backend: backend)
        try session.set("email", input: "other-bad")
        try session.set("email", input: "not-an-email")
        try session.set("city", input: "Gdańsk")
        #expect(try session.save().isSuccess)
        #expect(session.warnings("email").count == 1)
    }

    @Test func formRulesNamingOnlyUntouchedFieldsWarnTheOthersBlock() throws {
        let mismatch = FormRule.fieldsEqual("repeatCity", other: "city")
        let (form, backend) = customers(rules: [mismatch])
        backend.put(["id": 1, "name": "Ann", "email": "ann@example.com", "city": "Warszawa", "repeatCity": "Varsovie"])

        let untouched = try FormSession.open(form, key: key, backend: backend)
        try untouched.set("name", input: "Anna")
        #expect(try untouched.save().isSuccess)
        #expect(untouched.warnings.map(\.code) == ["mismatch"])

        let touched = try FormSession.open(form, key: key, backend: backend)
        try touched.set("city", input: "Kraków")
        guard case .invalid(let errors) = try touched.save() else {
            Issue.record("a change breaking a rule that names it was saved")
            return
        }
        #expect(errors.map(\.code) == ["mismatch"])
    }

    @Test func aFormRuleNamingNoFieldRunsOnEverySave() throws {
        let never = FormRule.custom(CustomFormRule(code: "closed", field: nil, message: "The ledger is closed") { _ in false })
        let (form, backend) = customers(rules: [never])
        let session = try FormSession.open(form, key: key, backend: backend)
        try session.set("city", input: "Kraków")
        #expect(try session.save() == .invalid([FieldError(field: nil, code: "closed", message: "The ledger is closed")]))
    }

    @Test func aNewRecordValidatesEveryField() throws {
        let (form, backend) = customers()
        let session = FormSession.new(form, backend: backend)
        try session.set("id", input: "2")
        try session.set("city", input: "Kraków")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("a new record without its required name was saved")
            return
        }
        #expect(errors.map(\.field) == ["name"])
        #expect(session.warnings.isEmpty)
    }

    @Test func validateAllStillReportsEverything() throws {
        let (form, backend) = customers()
        let session = try FormSession.open(form, key: key, backend: backend)
        #expect(session.validateAll().map(\.field) == ["name", "email"])
        #expect(session.validateChanges().isEmpty)
        #expect(session.warnings.map(\.field) == ["name", "email"])
    }

    @Test func editModeSavesPastAnUntouchedBrokenValue() throws {
        let (form, backend) = customers(mode: .edit)
        let session = try FormSession.open(form, key: key, backend: backend)
        try session.beginEditing()
        try session.set("city", input: "Kraków")
        #expect(try session.save().isSuccess)
        #expect(!session.isEditing)
        #expect(session.warnings.map(\.field) == ["name", "email"])
    }

    @Test func freeModeSavesEachValidChangeWhateverTheOtherFieldsHold() throws {
        let (form, backend) = customers(mode: .free)
        let session = try FormSession.open(form, key: key, backend: backend)
        #expect(try session.set("city", input: "Kraków") == .saved(changed: ["city"], key: key))
        #expect(try session.set("email", input: "still-bad") == nil, "an invalid change stays unsaved")
        #expect(backend.record(key)?.values["email"] == "not-an-email")
    }

    @Test func aSessionBoundToAModelValidatesEverything() throws {
        let (form, _) = customers()
        let binding = try FormBinding(form: form, model: DictionaryModel(
            ["id": .int(1), "name": .text(""), "email": .text("x"), "city": .text("A"), "repeatCity": .text("A")]))
        let session = try FormSession.bound(to: binding)
        try session.set("city", input: "B")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("a model with a missing required name was saved")
            return
        }
        #expect(errors.map(\.field) == ["name", "email"])
    }

    @Test func theFormReportsErrorsAndWarningsForAnImporter() {
        let (form, _) = customers()
        let values: [String: FieldValue] = ["id": 1, "name": "", "email": "not-an-email", "city": "Kraków"]
        let changed = form.validate(changed: ["city"], values: values)
        #expect(changed.isValid)
        #expect(changed.warnings.map(\.field) == ["name", "email"])
        let whole = form.validate(changed: Set(form.fields.map(\.key)), values: values)
        #expect(whole.errors.map(\.field) == ["name", "email"])
        #expect(whole.warnings.isEmpty)
    }
}
