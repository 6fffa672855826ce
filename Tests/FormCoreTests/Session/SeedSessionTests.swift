import Foundation
import Testing
@testable import FormCore

/// Every seed example's rule (SEEDS.md), driven through editing sessions bound
/// to Codable structs: what a person typed reaches the model, and back.
@Suite struct SeedSessionTests {
    func session<M: Codable>(_ form: Form, _ model: M) throws -> (FormSession, FormBinding<StructModel<M>>) {
        let binding = try FormBinding(form: form, model: StructModel(model))
        return (try FormSession.bound(to: binding), binding)
    }

    @Test func registrationCleansThePostalCodeAndBlamesTheRepeatedPassword() throws {
        let (session, binding) = try session(registrationForm, Registration())
        try session.set("username", input: "jdoe")
        try session.set("password", input: "secret1")
        try session.set("password2", input: "secret2")
        try session.set("street", input: "1 Loop")
        try session.set("postalCode", input: "12 345")
        try session.set("city", input: "Springfield")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("saved with mismatched passwords and terms not accepted")
            return
        }
        #expect(errors.contains(FieldError(field: "password2", code: "mismatch",
                                           message: "Please enter the same password again")))
        #expect(errors.contains { $0.field == "acceptTerms" && $0.message == "Please accept the terms and conditions to continue" })
        #expect(binding.model.model.postalCode == "", "nothing written while invalid")

        try session.set("password2", input: "secret1")
        try session.set("acceptTerms", input: "yes")
        #expect(try session.save().isSuccess)
        #expect(binding.model.model.postalCode == "12345")
        #expect(binding.model.model.country == "usa", "United States is the default")
        #expect(binding.model.model.acceptTerms)
    }

    @Test func registrationPasswordHasItsOwnMessage() throws {
        let (session, _) = try session(registrationForm, Registration())
        _ = try session.save()
        #expect(session.errors("password").map(\.message) == ["Password wrong"])
    }

    @Test func signupAgeIsShownAsTextButHeldAsANumber() throws {
        let (session, binding) = try session(signupForm, Signup(email: "a@b.co", password: "pw"))
        try session.set("age", input: "42")
        #expect(session.value("age") == .int(42))
        #expect(session.text("age") == "42")
        try session.set("age", input: "forty")
        #expect(session.errors("age").first?.code == "number")
        #expect(session.text("age") == "forty", "what was typed is kept")
        try session.set("age", input: "120")
        session.commit("age")
        #expect(session.errors("age").first?.code == "range")
        try session.set("age", input: "41")
        #expect(try session.save().isSuccess)
        #expect(binding.model.model.age == 41)
    }

    @Test func registerFormatsThePhoneAndUpperCasesTheState() throws {
        let (session, binding) = try session(registerForm, Register(name: "Ann", username: "ann", password: "pw"))
        try session.set("phone", input: "555.123.4567")
        try session.set("state", input: " ca ")
        try session.set("birthdate", input: "12/31/1999")
        #expect(session.text("phone") == "(555) 123-4567")
        #expect(try session.save().isSuccess)
        #expect(binding.model.model.phone == "5551234567")
        #expect(binding.model.model.state == "CA")
        #expect(session.text("birthdate") == "12/31/1999")
        #expect(session.unsavedChangesWarning == nil)
        try session.set("zip", input: "1234")
        #expect(session.unsavedChangesWarning == "Discard this registration?")
    }

    @Test func profileShowsDeleteOnlyWhileEditing() throws {
        let (session, _) = try session(profileForm, Profile(firstName: "Ann"))
        #expect(!session.visibleFields.contains { $0.key == "delete" })
        #expect(throws: SessionError.self) { try session.set("firstName", input: "Bo") }
        try session.beginEditing()
        #expect(session.visibleFields.contains { $0.key == "delete" })
        try session.set("birthdate", value: .date(Date(timeIntervalSinceNow: 86_400 * 30)))
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("a birthdate in the future saved")
            return
        }
        #expect(errors.map(\.message) == ["A birthdate cannot be in the future"])
        try session.cancel()
        #expect(!session.visibleFields.contains { $0.key == "delete" })
    }

    @Test func basicInfoKeepsSeveralFoods() throws {
        let (session, binding) = try session(basicInfoForm, BasicInfo())
        try session.set("name", input: "John Snow")
        try session.set("favoriteFoods", input: "Pizza, Tacos")
        try session.set("gender", input: "female")
        #expect(session.value("favoriteFoods") == .list(["Pizza", "Tacos"]))
        #expect(try session.save().isSuccess)
        #expect(binding.model.model.favoriteFoods == ["Pizza", "Tacos"])
        #expect(binding.model.model.gender == "Female")
        try session.set("favoriteFoods", input: "Sushi, Pizza, Nachos")
        #expect(session.errors("favoriteFoods").isEmpty == false, "Nachos is not a choice")
    }

    @Test func basicInfoMoodCanBeDeselectedAndFoodsToggled() throws {
        let (session, _) = try session(basicInfoForm, BasicInfo())
        try session.select("mood", choice: "Calm")
        #expect(session.value("mood") == "Calm")
        try session.select("mood", choice: "Calm")
        #expect(session.value("mood") == .null, "mood allows deselecting")
        try session.select("gender", choice: "Male")
        try session.select("gender", choice: "Male")
        #expect(session.value("gender") == "Male", "a segmented control without deselect keeps its choice")
        try session.select("favoriteFoods", choice: "Sushi")
        try session.select("favoriteFoods", choice: "Salad")
        try session.select("favoriteFoods", choice: "Sushi")
        #expect(session.value("favoriteFoods") == .list(["Salad"]))
        #expect(throws: SessionError.self) { try session.select("name", choice: "John Snow") }
    }

    @Test func loginChecksTheEmailPattern() throws {
        let (session, _) = try session(loginForm, Login())
        try session.set("email", input: "not-an-address")
        try session.set("password", input: "pw")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("a malformed e-mail saved")
            return
        }
        #expect(errors.map(\.field) == ["email"])
        #expect(errors.first?.code == "email")
        try session.set("email", input: "Ann@Example.com")
        #expect(try session.save().isSuccess)
        #expect(session.value("email") == "ann@example.com")
    }

    @Test func aModelChangedElsewhereReachesTheSession() throws {
        let (session, binding) = try session(signupForm, Signup(firstName: "Ann", email: "a@b.co", password: "pw"))
        try session.set("lastName", input: "Lee")
        binding.update { $0.model.firstName = "Annie"; $0.model.lastName = "Kim" }
        let conflicts = try session.reload()
        #expect(session.value("firstName") == "Annie")
        #expect(session.value("lastName") == "Lee", "the person's edit is kept")
        #expect(conflicts.map(\.field) == ["lastName"])
    }

    @Test func dictionaryAndSettingsModelsWorkThroughTheSameSession() throws {
        let form = Form("prefs") {
            Section {
                Field("Theme", key: "ui.theme", kind: .choice).choices(["light", "dark"])
                Field("Font size", key: "ui.fontSize", kind: .integer).range(8...32)
            }
        }
        let dictionary = try FormBinding(form: form, model: DictionaryModel(["ui.theme": "light", "ui.fontSize": 12]))
        let onDictionary = try FormSession.bound(to: dictionary)
        try onDictionary.set("ui.fontSize", input: "14")
        #expect(try onDictionary.save().isSuccess)
        #expect(dictionary.model.value(forKey: "ui.fontSize") == 14)

        let store = InMemorySettingsStore(["ui.theme": "light", "ui.fontSize": 12])
        let settings = try FormBinding(form: form, model: SettingsModel(store: store))
        let onSettings = try FormSession.bound(to: settings)
        try onSettings.set("ui.theme", input: "dark")
        #expect(try onSettings.save().isSuccess)
        #expect(store.value(forKey: "ui.theme") == "dark")
    }
}
