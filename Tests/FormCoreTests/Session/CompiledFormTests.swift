@testable import FormCore
import FoundationEssentials
import Testing

/// A form is prepared once and shared by its sessions; a different form
/// under the same name and version is prepared apart, and a mistake is
/// reported every time the form is used.
@Suite struct CompiledFormTests {
    func form(_ keys: [String], hiddenWhen: Condition? = nil) -> Form {
        var fields = keys.map { Field(key: $0, label: $0.capitalized) }
        if let hiddenWhen { fields[fields.count - 1].hiddenWhen = hiddenWhen }
        return Form(name: "contact", sections: [Section(fields: fields)])
    }

    @Test func sessionsOfTheSameFormShareItsPreparation() {
        // A name no other test uses: the cache keeps the latest 8 forms of a
        // name, and tests running beside this one make other "contact" forms.
        var contact = form(["name", "email"])
        contact.name = "contact-shared-preparation"
        let first = FormSession.new(contact, backend: MemoryBackend())
        let second = FormSession.new(contact, backend: MemoryBackend())
        #expect(first.compiled === second.compiled)
        #expect(first.visibleFields.map(\.key) == ["name", "email"])
    }

    @Test func aFormChangedUnderTheSameNameAndVersionGetsItsOwnFields() throws {
        let backend = MemoryBackend()
        let stored = backend.put(["id": 1, "name": "Ann", "email": "ann@example.com", "phone": "555"])
        let short = try FormSession.open(form(["name", "email"]), key: stored.key, backend: backend)
        let long = try FormSession.open(form(["name", "email", "phone"]), key: stored.key, backend: backend)
        #expect(short.visibleFields.map(\.key) == ["name", "email"])
        #expect(long.visibleFields.map(\.key) == ["name", "email", "phone"])
        #expect(throws: SessionError.self) { try short.set("phone", input: "556") }
        try long.set("phone", input: "556")
        #expect(long.dirtyFields == ["phone"])
    }

    @Test func aConditionHidesAFieldAndAFormWithoutOneHidesNothing() throws {
        let plain = FormSession.new(form(["name", "email"]), backend: MemoryBackend())
        #expect(plain.visibility.hiddenKeys.isEmpty)
        let conditional = FormSession.new(form(["name", "email"], hiddenWhen: .isEmpty("name")), backend: MemoryBackend())
        #expect(!conditional.isVisible("email"))
        try conditional.set("name", input: "Ann")
        #expect(conditional.isVisible("email"))
    }

    @Test func aMistakeIsReportedEveryTimeTheFormIsOpened() {
        let broken = form(["name", "email"], hiddenWhen: .isEmpty("nmae"))
        let backend = MemoryBackend()
        let stored = backend.put(["id": 1, "name": "Ann", "email": "ann@example.com"])
        for _ in 0..<2 {
            #expect(throws: FormDefinitionError.self) { _ = try FormSession.open(broken, key: stored.key, backend: backend) }
        }
    }
}
