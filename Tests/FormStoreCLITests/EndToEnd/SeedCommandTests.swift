import FormStoreTestSupport
import Foundation
import Testing

/// Every seed example's rule (SEEDS.md), through the built `formstore` on the
/// demo schema with the specs of Fixtures/forms.
@Suite struct SeedCommandTests {
    @Test func registrationStoresThePostalCodeWithoutSpaces() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["new", "registration", "username=newbie", "password=s3cret!", "password2=s3cret!",
                                "street=1 Loop", "postalCode=12 345", "city=Springfield", "acceptTerms=yes"])
        #expect(run.code == 0, "\(run)")
        #expect(try demo.query("SELECT postalCode, country, acceptTerms FROM registrations WHERE username = 'newbie'")
            == "12345|usa|1\n")
    }

    @Test func registrationBlamesTheRepeatedPasswordAndTheTermsSwitch() throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let run = try demo.run(["new", "registration", "username=newbie", "password=s3cret!", "password2=other",
                                "street=1 Loop", "postalCode=12345", "city=Springfield", "acceptTerms=no"])
        #expect(run.code == 65)
        #expect(run.errors.contains("password2: Please enter the same password again"))
        #expect(run.errors.contains("acceptTerms: Please accept the terms and conditions to continue"))
        #expect(!run.errors.contains("s3cret!"), "a secure value never reaches a message")
        #expect(try demo.dump() == before)
    }

    @Test func signupAgeIsTypedAsTextAndStoredAsANumber() throws {
        let demo = try DemoDatabase()
        #expect(try demo.run(["set", "signup", "1", "age=40"]).code == 0)
        #expect(try demo.query("SELECT age, typeof(age) FROM signups WHERE id = 1") == "40|integer\n")
        let bad = try demo.run(["set", "signup", "1", "age=forty"])
        #expect(bad.code == 65)
        #expect(bad.errors.contains("age: Age is not a number"))
    }

    @Test func registerStoresThePhoneAsDigitsAndShowsItFormatted() throws {
        let demo = try DemoDatabase()
        #expect(try demo.run(["set", "register", "2", "phone=555.111.2222", "state= tx"]).code == 0)
        #expect(try demo.query("SELECT phone, state FROM registers WHERE id = 2") == "5551112222|TX\n")
        let shown = try demo.run(["show", "register", "2"])
        #expect(shown.output.contains("Phone:     (555) 111-2222"))
        #expect(shown.output.contains("State:     TX"))
        #expect(shown.output.contains("Password:  ••••"))
    }

    @Test func profileIsAnEditModeFormWhoseDeleteShowsOnlyWhileEditing() throws {
        let demo = try DemoDatabase()
        let form = try demo.run(["form", "profile", "--format", "json"])
        #expect(form.output.contains("\"mode\": \"edit\""))
        #expect(form.output.contains("\"hiddenWhen\""))
        // Prompts in edit mode ask to begin editing first; declining changes nothing.
        let declined = try demo.run(["edit", "profile", "1"], stdin: "n\n")
        #expect(declined.code == 0, "\(declined)")
        #expect(declined.errors.contains("First Name"))
        #expect(!declined.errors.contains("Delete"), "no Delete before editing begins")
    }

    @Test func basicInfoKeepsSeveralFavoriteFoods() throws {
        let demo = try DemoDatabase()
        #expect(try demo.run(["set", "basic-info", "2", "favoriteFoods=Pizza, Salad, Tacos"]).code == 0)
        let shown = try demo.run(["show", "basic-info", "2", "--format", "json"])
        #expect(shown.output.contains("[\"Pizza\", \"Salad\", \"Tacos\"]"), "\(shown.output)")
        let bad = try demo.run(["set", "basic-info", "2", "favoriteFoods=Pizza, Nachos"])
        #expect(bad.code == 65)
        #expect(bad.errors.contains("favoriteFoods"))
    }
}
