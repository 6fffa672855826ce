import Foundation
import Testing
@testable import FormCore

/// Collects what a binding reports, from whichever thread reports it.
final class ChangeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(Set<String>, [String: FieldValue])] = []
    func record(_ keys: Set<String>, _ values: [String: FieldValue]) { lock.withLock { entries.append((keys, values)) } }
    var keys: [Set<String>] { lock.withLock { entries.map(\.0) } }
    var lastValues: [String: FieldValue]? { lock.withLock { entries.last?.1 } }
}

@Suite struct BindingTests {
    struct Address: Codable, Equatable { var city: String; var zip: String }
    struct Person: Codable, Equatable {
        var name: String
        var age: Int?
        var newsletter: Bool
        var foods: [String]
        var address: Address
        var joined: Date
        var score: Double
    }

    static let ada = Person(name: "Ada", age: nil, newsletter: false, foods: ["pizza"],
                            address: Address(city: "London", zip: "N1"), joined: date("2020-01-02"), score: 1.5)

    static let personForm = Form("person", for: Person.self) {
        Section {
            Field("Name", \Person.name).required()
            Field("Age", \Person.age)
            Field("Newsletter", \Person.newsletter)
            Field("Foods", \Person.foods).choices(["pizza", "sushi"])
            Field("City", \Person.address.city)
            Field("Joined", \Person.joined)
            Field("Score", \Person.score)
        }
    }

    @Test func keyPathsResolveToCodingKeysAndKinds() {
        #expect(BindingTests.personForm.fields.map(\.key) == ["name", "age", "newsletter", "foods", "address.city", "joined", "score"])
        #expect(BindingTests.personForm.fields.map(\.kind) == [.text, .integer, .bool, .multichoice, .text, .date, .decimal])
        #expect(StructModel<Person>.key(for: \.address.zip) == "address.zip")
    }

    @Test func keyPathsFollowCustomCodingKeys() {
        struct Row: Codable {
            var firstName: String
            var flags: [Bool]
            var a: Bool, b: Bool, c: Bool
            enum CodingKeys: String, CodingKey { case firstName = "first_name", flags, a, b, c }
        }
        #expect(StructModel<Row>.key(for: \.firstName) == "first_name")
        #expect(StructModel<Row>.key(for: \.b) == "b")
        #expect(StructModel<Row>.key(for: \.c) == "c")
        #expect(StructModel<Row>.key(for: \.flags) == "flags")
    }

    @Test func keyPathWithoutACodingKeyIsNamedWhenBuilt() {
        struct Model: Codable {
            var name: String
            var secret = ""
            var shout: String { get { name.uppercased() } set { name = newValue } }
            enum CodingKeys: String, CodingKey { case name }
        }
        let form = Form("m", for: Model.self) {
            Section { Field("Name", \Model.name); Field("Shout", \Model.shout) }
            Section { Field("Secret", \Model.secret) }
        }
        let problems = form.definitionProblems
        #expect(problems.map(\.path) == ["$.sections[0].fields[1].key", "$.sections[1].fields[0].key"])
        #expect(problems.first?.message.contains("field \"Shout\"") == true)
        #expect(problems.last?.message.contains("\\Model.secret") == true)
        #expect(throws: FormDefinitionError.self) { try form.checked() }
        #expect(throws: BindingError.self) { try FormBinding(form: form, model: StructModel(Model(name: "x"))) }
    }

    @Test func structBindingReadsAndWritesThroughKeyPaths() throws {
        let binding = try FormBinding(form: BindingTests.personForm, model: StructModel(BindingTests.ada))
        let values = binding.read()
        #expect(values["name"] == "Ada")
        #expect(values["age"] == .null)
        #expect(values["address.city"] == "London")
        #expect(values["joined"] == .date(date("2020-01-02")))

        let age = try #require(BindingTests.personForm.field("age"))
        try binding.write("age", age.parse("36").get())
        try binding.write("foods", BindingTests.personForm.field("foods")!.parse("pizza, sushi").get())
        try binding.write("address.city", "Paris")
        #expect(binding.model.model.age == 36)
        #expect(binding.model.model.foods == ["pizza", "sushi"])
        #expect(binding.model.model.address.city == "Paris")
        #expect(binding.model[\.address.city] == "Paris")
        #expect(throws: ModelError.self) { try binding.write("age", "old") }
    }

    /// A save the model cannot take whole changes none of it: a value one
    /// property cannot hold leaves the others as they were.
    @Test func aSaveTheModelCannotHoldWritesNothing() throws {
        let binding = try FormBinding(form: BindingTests.personForm, model: StructModel(BindingTests.ada))
        #expect(throws: ModelError.self) { try binding.write(["address.city": "Paris", "newsletter": .null]) }
        #expect(binding.model.model == BindingTests.ada)
        #expect(binding.read()["address.city"] == "London")
        // Through a session, a property that is no Optional refuses nothing before anything is written.
        let session = try FormSession.bound(to: binding)
        try session.set("address.city", input: "Paris")
        try session.set("newsletter", value: .null)
        guard case .invalid(let errors) = try session.save() else { Issue.record("saved nothing into a Bool"); return }
        #expect(errors.map(\.field) == ["newsletter"])
        #expect(errors.map(\.code) == ["required"])
        #expect(binding.model.model == BindingTests.ada)
    }

    /// Cleared, a property that is no Optional takes its empty value where it
    /// has one (`""`, `[]`); a number or a date has none and is required; an
    /// Optional takes nothing.
    @Test func aClearedFieldIsWhatItsPropertyCanHold() throws {
        let binding = try FormBinding(form: BindingTests.personForm,
                                      model: StructModel(Person(name: "Ada", age: 36, newsletter: true, foods: ["pizza"],
                                                                address: Address(city: "London", zip: "N1"),
                                                                joined: date("2020-01-02"), score: 1.5)))
        let session = try FormSession.bound(to: binding)
        #expect(session.form.field("score")?.isNotNull == true)
        #expect(session.form.field("age")?.isNotNull == false)
        #expect(session.form.field("foods")?.isNotNull == false)
        #expect(session.form.field("address.city")?.isNotNull == false)
        try session.set("age", input: "")
        try session.set("foods", input: "")
        try session.set("address.city", input: "")
        try session.set("score", input: "")
        guard case .invalid(let errors) = try session.save() else { Issue.record("saved nothing into a Double"); return }
        #expect(errors.map(\.field) == ["score"], "\(errors)")
        try session.set("score", input: "2")
        #expect(try session.save().isSuccess)
        #expect(binding.model.model.age == nil)
        #expect(binding.model.model.foods == [])
        #expect(binding.model.model.address.city == "")
        #expect(binding.model.model.score == 2)
    }

    @Test func structChangedElsewhereReachesTheForm() throws {
        let binding = try FormBinding(form: BindingTests.personForm, model: StructModel(BindingTests.ada))
        let log = ChangeLog()
        binding.onChange = { log.record($0, $1) }
        try binding.write("name", "Grace")              // the form's own edit: not reported back
        #expect(log.keys.isEmpty)
        let changed = binding.update { $0.model.newsletter = true; $0.model.address.city = "Rome" }
        #expect(changed == ["newsletter", "address.city"])
        #expect(log.keys == [["newsletter", "address.city"]])
        #expect(log.lastValues?["address.city"] == "Rome")
        #expect(binding.refresh().isEmpty)
    }

    @Test func dictionaryBindingUsesDottedPaths() throws {
        let form = Form("contact") {
            Section {
                Field("Name", key: "name").required()
                Field("City", key: "address.city")
                Field("Age", key: "age", kind: .integer)
            }
        }
        let binding = try FormBinding(form: form, model: DictionaryModel(["name": "Ada", "address.city": "London"]))
        #expect(binding.read() == ["name": "Ada", "address.city": "London", "age": .null])
        try binding.write("address.city", "Paris")
        try binding.write("age", 36)
        #expect(binding.model.root["address"] == .object(["city": .value("Paris")]))
        #expect(binding.model.values == ["name": "Ada", "address.city": "Paris", "age": 36])

        let log = ChangeLog()
        binding.onChange = { log.record($0, $1) }
        binding.update { try? $0.setValue("Rome", forKey: "address.city") }
        #expect(log.keys == [["address.city"]])

        var model = DictionaryModel(["name": "Ada"])
        #expect(throws: ModelError.self) { try model.setValue("x", forKey: "name.first") }
        let json = try DictionaryModel(json: Data(#"{"name": "Ada", "address": {"city": "Oslo", "zip": 123}}"#.utf8))
        #expect(json.value(forKey: "address.zip") == 123)
    }

    @Test func missingKeyIsNamedWhenTheBindingIsBuilt() {
        let form = Form("contact") {
            Section {
                Field("Name", key: "name")
                Field("Nickname", key: "nickname")
                Field("Password 2", key: "password2", kind: .password).stored(false)
            }
        }
        do {
            _ = try FormBinding(form: form, model: DictionaryModel(["name": "Ada"], allowsNewKeys: false))
            Issue.record("binding to a model without \"nickname\" succeeded")
        } catch {
            #expect(error.key == "nickname")
            #expect(error.message.contains("\"nickname\""))
        }
        #expect(throws: BindingError.self) {
            try FormBinding(form: form, model: StructModel(BindingTests.ada))
        }
    }

    @Test func settingsStoreBindingHearsChangesMadeElsewhere() throws {
        let store = InMemorySettingsStore(["theme": "dark"])
        let form = Form("settings") {
            Section {
                Field("Theme", key: "theme", kind: .choice).choices(["light", "dark"])
                Field("Newsletter", key: "newsletter", kind: .bool)
            }
        }
        let model = SettingsModel(store: store, defaults: ["newsletter": false])
        let binding = try FormBinding(form: form, model: model)
        let log = ChangeLog()
        binding.onChange = { log.record($0, $1) }
        #expect(binding.read() == ["theme": "dark", "newsletter": false])

        try binding.write("newsletter", true)
        #expect(store.value(forKey: "newsletter") == true)
        #expect(log.keys.isEmpty)

        try store.set("light", forKey: "theme")          // another part of the program
        #expect(log.keys == [["theme"]])
        #expect(log.lastValues?["theme"] == "light")

        store.removeValue(forKey: "newsletter")          // back to the registered default
        #expect(binding.read()["newsletter"] == false)
        #expect(log.keys.last == ["newsletter"])

        #expect(throws: BindingError.self) {
            try FormBinding(form: form, model: SettingsModel(store: InMemorySettingsStore()))
        }
    }

    @Test func cancelledObservationStopsReporting() throws {
        let store = InMemorySettingsStore()
        let log = ChangeLog()
        let observation = store.addObserver { log.record($0, [:]) }
        try store.set(1, forKey: "a")
        observation.cancel()
        try store.set(2, forKey: "a")
        #expect(log.keys == [["a"]])
    }

    @Test func modelCoderMapsTypesBothWays() throws {
        let values = try ModelCoder.encode(BindingTests.ada)
        #expect(values == [
            "name": "Ada", "age": .null, "newsletter": false, "foods": .list(["pizza"]),
            "address.city": "London", "address.zip": "N1", "joined": .date(date("2020-01-02")), "score": 1.5,
        ])
        #expect(try ModelCoder.decode(Person.self, from: values) == BindingTests.ada)

        struct Numbers: Codable, Equatable { var i8: Int8; var u16: UInt16; var f: Float; var data: Data; var list: [Int] }
        let numbers = Numbers(i8: -3, u16: 65_000, f: 0.5, data: Data([1, 2]), list: [])
        let encoded = try ModelCoder.encode(numbers)
        #expect(encoded["i8"] == -3 && encoded["u16"] == 65_000 && encoded["f"] == 0.5 && encoded["data"] == .data(Data([1, 2])))
        var lenient = encoded
        lenient["list"] = .null
        lenient["u16"] = .double(7)
        #expect(try ModelCoder.decode(Numbers.self, from: lenient).list == [])
        #expect(try ModelCoder.decode(Numbers.self, from: lenient).u16 == 7)
        lenient["i8"] = 300
        #expect(throws: DecodingError.self) { try ModelCoder.decode(Numbers.self, from: lenient) }
    }
}
