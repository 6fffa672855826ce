import Foundation
import FormCore

// The five seed libraries' example forms, defined in the DSL over Codable
// models. Each must equal its JSON fixture in Fixtures/forms/.

struct Registration: Codable, Equatable {
    var username = ""
    var password = ""
    var country = "usa"
    var street = ""
    var postalCode = ""
    var city = ""
    var acceptTerms = false
}

let registrationForm = Form("registration", title: "Registration", for: Registration.self) {
    Section {
        Field("Username", \Registration.username).placeholder("your username").required().minLength(4)
        Field("Password", \Registration.password, kind: .password).placeholder("your password").required()
            .message("required", "Password wrong")
        // Only confirms the password: not a model property, never stored.
        Field("Password 2", key: "password2", kind: .password).placeholder("repeat your password").stored(false)
    }
    Section("Country") {
        Field("Country", \Registration.country, kind: .choice).style(.buttons)
            .choices([(value: "usa", label: "United States"), (value: "de", label: "Germany"), (value: "es", label: "Spain")])
            .defaultValue("usa")
    }
    Section("Address") {
        Field("Street", \Registration.street).placeholder("your street").required().expanding()
        Field("Postal code", \Registration.postalCode).placeholder("your postal code").required().transform(.removeSpaces)
        Field("City", \Registration.city).placeholder("your city").required()
    }
    Section("Terms and Conditions") {
        Field("Accept", \Registration.acceptTerms).required()
            .message("required", "Please accept the terms and conditions to continue")
    }
}
.table("registrations").editsOtherTable().primaryKey("id")
.rule(.fieldsEqual("password2", other: "password", message: "Please enter the same password again"))

struct Login: Codable {
    var email = ""
    var password = ""
}

let loginForm = Form("login", title: "Log In", for: Login.self) {
    Section {
        Field("E-mail", \Login.email, kind: .email).required().email()
        Field("Password", \Login.password, kind: .password).required()
    }
}.table("logins").editsOtherTable().primaryKey("id")

struct Signup: Codable {
    var firstName = ""
    var lastName = ""
    var email = ""
    var password = ""
    var age: Int?
}

let signupForm = Form("signup", title: "Sign Up", for: Signup.self) {
    Section {
        Field("First Name", \Signup.firstName, kind: .name)
        Field("Last Name", \Signup.lastName, kind: .name)
        Field("E-mail", \Signup.email, kind: .email).required().email()
        Field("Password", \Signup.password, kind: .password).required()
        Field("Age", \Signup.age).range(0...119).hint("shown as text, stored as a number")
    }
}.table("signups").editsOtherTable().primaryKey("id")

struct Register: Codable {
    var name = ""
    var username = ""
    var password = ""
    var phone = ""
    var email = ""
    var state = ""
    var zip = ""
    var birthdate: Date?
}

let registerForm = Form("register", title: "Register", for: Register.self) {
    Section("Account") {
        Field("Name", \Register.name, kind: .name).placeholder("Full name").required()
        Field("Username", \Register.username).required()
        Field("Password", \Register.password, kind: .password).required()
    }
    Section("Contact") {
        Field("Phone", \Register.phone, kind: .phone).placeholder("(555) 555-5555")
        Field("E-mail", \Register.email, kind: .email)
        Field("State", \Register.state, kind: .state).placeholder("CA")
        Field("ZIP", \Register.zip, kind: .zip)
        Field("Birthdate", \Register.birthdate).format("MM/dd/yyyy").placeholder("MM/DD/YYYY")
    }
}
.table("registers").editsOtherTable().primaryKey("id").unsavedChangesWarning("Discard this registration?")

struct Profile: Codable {
    var firstName = ""
    var lastName = ""
    var gender: String?
    var birthdate: Date?
}

let profileForm = Form("profile", title: "Profile", for: Profile.self) {
    Section {
        Field("First Name", \Profile.firstName, kind: .name).required()
        Field("Last Name", \Profile.lastName, kind: .name)
        Field("Gender", \Profile.gender, kind: .choice).choices(["Male", "Female"])
        Field("Birthdate", \Profile.birthdate).maxFutureDays(0)
            .message("maxFutureDays", "A birthdate cannot be in the future")
    }
    Section {
        Field(action: "delete", "Delete", style: .destructive).hidden(when: .not(.editing))
    }
}
.mode(.edit).table("profiles").editsOtherTable().primaryKey("id")

struct BasicInfo: Codable {
    var name = ""
    var gender: String?
    var birth: Date?
    var mood: String?
    var favoriteFoods: [String] = []
}

let basicInfoForm = Form("basic-info", title: "Basic Info", for: BasicInfo.self) {
    Section("Basic Info") {
        Field("Name", \BasicInfo.name, kind: .name).suggestions(["John Snow", "John Green"])
        Field("Gender", \BasicInfo.gender, kind: .choice).style(.segmented).choices(["Male", "Female"])
        Field("Birth", \BasicInfo.birth).maxFutureDays(0)
    }
    Section("More Info") {
        Field("Mood", \BasicInfo.mood, kind: .choice).allowsDeselect().choices(["Happy", "Calm", "Sad"])
        Field("Favorite Foods", \BasicInfo.favoriteFoods).choices(["Pizza", "Sushi", "Tacos", "Salad"])
    }
    Section {
        Field(action: "submit", "Submit", style: .big)
    }
}
.table("basic_info").editsOtherTable().primaryKey("id")

let seedForms: [(fixture: String, form: Form)] = [
    ("registration", registrationForm), ("login", loginForm), ("signup", signupForm),
    ("register", registerForm), ("profile", profileForm), ("basic-info", basicInfoForm),
]
