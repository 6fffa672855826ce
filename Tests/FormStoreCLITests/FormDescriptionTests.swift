import FormCore
import Testing
@testable import FormStoreCLI

/// `formstore form`'s text: every field with its checks, its choices (which
/// are disabled), when it is hidden or disabled, and the rules across fields.
@Suite struct FormDescriptionTests {
    @Test func theTextNamesChecksConditionsDisabledChoicesAndRules() {
        let form = Form("registration", title: "Registration") {
            Section {
                Field("Username", key: "username").required().minLength(4)
                Field("Password", key: "password", kind: .password)
                Field("Password 2", key: "password2", kind: .password).stored(false)
                Field("Country", key: "country", kind: .choice)
                    .choices([(value: "us", label: "USA", disabled: false), (value: "xx", label: "Atlantis", disabled: true)])
                Field("State", key: "state", kind: .state).hidden(when: .notEquals("country", "us"))
                Field("Age", key: "age", kind: .integer).range(18...120).disabled(when: .isEmpty("username"))
            }
        }
        .rule(.fieldsEqual("password2", other: "password"))
        .rule(.custom(CustomFormRule(code: "notTaken", field: "username") { _ in true }))
        #expect(FormDescription(form: form).text() == """
            Registration (registration): edits table registration, mode save
              username: Username (text, required, at least 4 characters)
              password: Password (password, secure)
              password2: Password 2 (password, secure)
              country: Country (choice)
                choices: USA, Atlantis (disabled)
              state: State (state)
                hidden when Country is not "USA"
              age: Age (integer, from 18 to 120)
                disabled when Username is empty

            Rules
              Password 2 equals Password
              rule notTaken (on Username)

            """)
    }
}
