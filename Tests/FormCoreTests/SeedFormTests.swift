import Foundation
import Testing
@testable import FormCore

@Suite struct SeedFormTests {
    @Test(arguments: seedForms.map(\.fixture))
    func dslAndJSONDefineTheSameForm(fixture: String) throws {
        let dsl = try #require(seedForms.first { $0.fixture == fixture }).form
        let json = try Fixtures.form(fixture)
        #expect(dsl.definitionProblems.isEmpty)
        #expect(json == dsl)
    }

    @Test(arguments: seedForms.map(\.fixture))
    func encodedSpecReadsBackEqual(fixture: String) throws {
        let form = try Fixtures.form(fixture)
        let again = try FormSpec.decode(FormSpec.encode(form))
        #expect(again == form)
        #expect(try FormSpec.encode(again) == FormSpec.encode(form))
    }

    @Test func issueExampleCompilesAndResolvesKeys() throws {
        struct Profile: Codable { var firstName: String; var age: Int?; var newsletter: Bool; var foods: [String] }
        // Key paths spell their root: Swift cannot infer `\.age`'s root from a result builder.
        let form = try Form("profile", title: "Profile", for: Profile.self) {
            Section("Basic Info") {
                Field("First name", \Profile.firstName).required().minLength(2)
                Field("Age", \Profile.age, kind: .integer).range(0...119)
                Field("Newsletter", \Profile.newsletter)   // kind inferred as .bool from Bool
                Field("Foods", \Profile.foods, kind: .multichoice).choices(["pizza", "sushi"])
            }
        }.mode(.edit).rule(.fieldsEqual("age", other: "firstName")).checked()
        #expect(form.fields.map(\.key) == ["firstName", "age", "newsletter", "foods"])
        #expect(form.fields.map(\.kind) == [.text, .integer, .bool, .multichoice])
        #expect(form.field("firstName")?.isRequired == true)
        #expect(form.field("firstName")?.rules == [.minLength(2)])
        #expect(form.mode == .edit)
    }

    @Test func registrationRejectsMismatchedPasswordsOnTheSecondField() throws {
        let form = try Fixtures.form("registration")
        let values: [String: FieldValue] = [
            "username": "jdoe", "password": "secret", "password2": "secrets", "country": "usa",
            "street": "Main St 1", "postalCode": "12345", "city": "Springfield", "acceptTerms": true,
        ]
        let errors = form.validateAll(values: values)
        #expect(errors == [FieldError(field: "password2", code: "mismatch", message: "Please enter the same password again")])
    }

    @Test func registrationSavesThePostalCodeWithoutSpaces() throws {
        let form = try Fixtures.form("registration")
        #expect(form.field("postalCode")?.parse(" 12 345 ") == .success(.text("12345")))
        let missing = form.validateAll(values: ["country": "usa"]).filter { $0.field == "acceptTerms" || $0.field == "password" }
        #expect(missing.map(\.message) == ["Password wrong", "Please accept the terms and conditions to continue"])
    }

    @Test func profileShowsDeleteOnlyWhileEditing() throws {
        let form = try Fixtures.form("profile")
        let delete = try #require(form.field("delete"))
        #expect(form.isHidden(delete, values: [:], editing: false))
        #expect(!form.isHidden(delete, values: [:], editing: true))
        #expect(delete.actionStyle == .destructive)
        #expect(delete.enabledWhenNotEditing)
        #expect(form.mode == .edit)
    }

    @Test func signupAgeIsShownAsTextAndStoredAsANumber() throws {
        let form = try Fixtures.form("signup")
        let age = try #require(form.field("age"))
        #expect(age.parse("42") == .success(.int(42)))
        #expect(age.format(.int(42)) == "42")
        #expect(form.validate(field: age, value: .int(120), values: [:]).map(\.message) == ["Age must be between 0 and 119"])
    }
}
