import Testing
@testable import FormCore

/// A save of a stored record checks the fields it changed at once and leaves
/// the untouched fields' warnings until someone reads them (a session nobody
/// observes). Whatever happens in between, the warnings read are the ones a
/// session whose observer heard every change holds.
@Suite struct DeferredWarningTests {
    let key = RecordKey("id", 1)

    /// A row another application wrote: an empty required name, an e-mail that
    /// was never valid, and a city and its repetition that disagree.
    func customers(rules: [FormRule] = []) -> (Form, MemoryBackend) {
        var id = Field(key: "id", label: "ID", kind: .integer)
        id.isReadOnly = true
        var name = Field(key: "name", label: "Name", kind: .name)
        name.isRequired = true
        var email = Field(key: "email", label: "Email", kind: .email)
        email.validationTiming = .onChange
        let city = Field(key: "city", label: "City")
        let repeatCity = Field(key: "repeatCity", label: "Repeat city")
        var form = Form(name: "customers", title: "Customers", sections: [
            Section(nil, fields: [id, name, email, city, repeatCity]),
        ])
        form.rules = rules
        form.table = "customers"
        form.primaryKey = ["id"]
        let backend = MemoryBackend(keyColumns: ["id"])
        backend.put(["id": 1, "name": "", "email": "not-an-email", "city": "Warszawa", "repeatCity": "Varsovie"])
        return (form, backend)
    }

    /// Runs `steps` on a session with an observer (warnings worked out at
    /// once) and on one without (deferred), and returns both warnings, the
    /// deferred session's read only at the end.
    func bothWays(rules: [FormRule] = [], _ steps: (FormSession) throws -> Void) throws
        -> (heard: [FieldError], deferred: [FieldError]) {
        let (form, backend) = customers(rules: rules)
        let observed = try FormSession.open(form, key: key, backend: backend)
        observed.observe { _ in }
        try steps(observed)
        let (otherForm, otherBackend) = customers(rules: rules)
        let quiet = try FormSession.open(otherForm, key: key, backend: otherBackend)
        try steps(quiet)
        return (observed.warnings, quiet.warnings)
    }

    @Test func aSavesWarningsReadLaterAreTheOnesItFound() throws {
        let (heard, deferred) = try bothWays { session in
            try session.set("city", input: "Kraków")
            #expect(try session.save().isSuccess)
        }
        #expect(deferred.map(\.field) == ["name", "email"])
        #expect(deferred == heard)
    }

    @Test func warningsReadAfterLaterEditsMatchTheObservedSession() throws {
        let (heard, deferred) = try bothWays { session in
            try session.set("city", input: "Kraków")
            #expect(try session.save().isSuccess)
            session.commit("name")                       // still empty: its warning again
            try session.set("email", input: "still-bad") // now changed: an error, no warning
            try session.set("email", input: "ann@example.com")
            session.commit("email")
        }
        #expect(deferred.map(\.field) == ["name"])
        #expect(deferred == heard)
    }

    @Test func aFieldTypedBackToItsStoredValueWarnsAgainInPlace() throws {
        let (heard, deferred) = try bothWays { session in
            try session.set("city", input: "Kraków")
            #expect(try session.save().isSuccess)
            try session.set("email", input: "other-bad")
            try session.set("email", input: "not-an-email")
        }
        #expect(deferred.map(\.field) == ["name", "email"])
        #expect(deferred == heard)
    }

    @Test func aFormRuleNamingOnlyUntouchedFieldsWarnsWhenRead() throws {
        let mismatch = FormRule.fieldsEqual("repeatCity", other: "city")
        let (heard, deferred) = try bothWays(rules: [mismatch]) { session in
            try session.set("name", input: "Anna")
            #expect(try session.save().isSuccess)
            session.commit("repeatCity")
        }
        #expect(deferred.map(\.code) == ["email", "mismatch"])
        #expect(deferred == heard)
    }

    /// Saves the name on a form whose rule wants the city repeated, runs
    /// `edits`, then expects the save's warnings: the deferred check keeps no
    /// copy of the values it saw, so what the edits change must not leak into them.
    func expectTheSavesWarnings(after edits: (FormSession) throws -> Void) throws {
        let (heard, deferred) = try bothWays(rules: [.fieldsEqual("repeatCity", other: "city")]) { session in
            try session.set("name", input: "Anna")
            #expect(try session.save().isSuccess)
            try edits(session)
        }
        #expect(deferred.map(\.code) == ["email", "mismatch"])
        #expect(deferred == heard)
    }

    @Test func editsOneAtATimeAfterTheSaveDoNotChangeTheValuesItsWarningsSaw() throws {
        try expectTheSavesWarnings { session in
            try session.set("city", input: "Paris")
            try session.set("city", input: "Varsovie")  // now equal to repeatCity, unsaved
        }
    }

    @Test func anUndoAfterTheSaveDoesNotChangeTheValuesItsWarningsSaw() throws {
        // The undo changes the current values all at once, not one key at a time.
        try expectTheSavesWarnings { session in
            try session.set("city", input: "Paris")
            try session.set("repeatCity", input: "Paris")
            _ = try session.undo()
        }
    }

    @Test func aSaveBlockedByAChangeStillWarnsAboutTheRest() throws {
        let (heard, deferred) = try bothWays { session in
            try session.set("name", input: "")
            try session.set("email", input: "still-bad")
            guard case .invalid(let errors) = try session.save() else {
                Issue.record("a changed invalid e-mail was saved")
                return
            }
            #expect(errors.map(\.field) == ["email"])
        }
        #expect(deferred.map(\.field) == ["name"])
        #expect(deferred == heard)
    }

    @Test func validateChangesDefersItsWarningsToo() throws {
        let (form, backend) = customers()
        let session = try FormSession.open(form, key: key, backend: backend)
        #expect(session.validateChanges().isEmpty)
        #expect(session.warningState.isPending)
        #expect(session.warnings.map(\.field) == ["name", "email"])
        #expect(!session.warningState.isPending)
    }
}
