import FormCore
import FormStoreTestSupport
import Foundation
import Testing
import FormStorage

/// A form made from a struct whose properties are no Optionals, over a table
/// FormStore writes: a record is saved only when the struct can be read
/// back from it. A new record left without its `qty` was saved with NULL
/// there, and then `model(as:)` and the typed load threw on it.
@Suite struct NonOptionalPropertyTests {
    struct Item: Codable {
        var id: Int?
        var title: String
        var qty: Int
        var active: Bool
        var tags: [String]
        var due: Date?
    }

    static let form = Form("items", title: "Item", for: Item.self) {
        Section {
            Field("Title", \Item.title)
            Field("Qty", \Item.qty)
            Field("Active", \Item.active)
            Field("Tags", \Item.tags)
            Field("Due", \Item.due)
        }
    }.primaryKey("id")

    func store() throws -> (TemporaryDirectory, FormStore) {
        let directory = try TemporaryDirectory()
        let store = try FormStore(path: directory.path("items.sqlite"))
        try store.database.write { try $0.execute(Self.form.createTableSQL()) }
        return (directory, store)
    }

    @Test func aNewRecordWithoutAValueTheStructNeedsIsInvalid() throws {
        let (directory, store) = try store()
        defer { _ = directory }
        let session = FormSession.new(Self.form, backend: store)
        try session.apply(json: Data(#"{"title": "Second"}"#.utf8))
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("saved without qty")
            return
        }
        #expect(errors.map(\.field) == ["qty"] && errors.map(\.code) == ["required"])
        // A Bool starts off, text and a list may be left out: the struct reads them as empty.
        try session.set("qty", input: "3")
        guard case .saved(_, let key) = try session.save() else {
            Issue.record("not saved")
            return
        }
        let item = try #require(try store.load(Item.self, form: Self.form, key: key))
        #expect(item.title == "Second" && item.qty == 3 && item.active == false && item.tags == [] && item.due == nil)
        #expect(try session.model(as: Item.self).qty == 3)
    }

    @Test func aNullInTheTableIsEmptyTextToAStringThatIsNoOptional() throws {
        let (directory, store) = try store()
        defer { _ = directory }
        try store.database.write { try $0.execute("INSERT INTO items (id, title, qty, active) VALUES (7, NULL, 1, 0)") }
        let item = try #require(try store.load(Item.self, form: Self.form, key: RecordKey("id", 7)))
        #expect(item.title == "" && item.tags == [])
    }
}

/// A `Decimal` through the typed door keeps every digit or is refused: one a
/// double cannot hold was saved rounded (`12345678901234567890.123456789`
/// stored as 1.23456789012346e+19, loaded back as …7168). SQLite's NUMERIC
/// would round it, so it is refused there; one a double holds is stored so.
@Suite struct TypedDecimalTests {
    struct Big: Codable {
        var id: Int?
        var d: Decimal
    }

    static let form = Form("big", for: Big.self) { Section { Field("D", \Big.d) } }.primaryKey("id")

    @Test func aDecimalIsStoredExactlyOrRefused() throws {
        let directory = try TemporaryDirectory()
        let store = try FormStore(path: directory.path("big.sqlite"))
        try store.database.write { try $0.execute("CREATE TABLE big (id INTEGER PRIMARY KEY, d NUMERIC)") }
        let exact = Decimal(string: "12.5")!
        guard case .saved(_, let key) = try store.save(Big(id: nil, d: exact), form: Self.form) else {
            Issue.record("12.5 not saved")
            return
        }
        #expect(try store.load(Big.self, form: Self.form, key: key)?.d == exact)
        let big = Decimal(string: "12345678901234567890.123456789")!
        let refusal = #expect(throws: JSONBodyError.self) { try store.save(Big(id: nil, d: big), form: Self.form) }
        #expect(refusal?.errors.map(\.message) == ["D has more digits than a number can hold exactly"])
        #expect(try store.database.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM big") } == 1)
    }
}

/// A date past the year 9999 through the typed door is refused as the JSON
/// door refuses `"99999-01-01"`: it was stored as `33658-09-27 01:46:40`,
/// which no load could read back.
@Suite struct TypedFarDateTests {
    struct Event: Codable {
        var id: Int?
        var due: Date?
    }

    @Test func aDateNoFourDigitYearHoldsIsRefused() throws {
        let directory = try TemporaryDirectory()
        let store = try FormStore(path: directory.path("events.sqlite"))
        try store.database.write { try $0.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, due DATETIME)") }
        let form = Form("events", for: Event.self) { Section { Field("Due", \Event.due, kind: .datetime) } }.primaryKey("id")
        let outcome = try store.save(Event(id: nil, due: Date(timeIntervalSince1970: 1e12)), form: form)
        guard case .invalid(let errors) = outcome else {
            Issue.record("saved: \(outcome)")
            return
        }
        #expect(errors.map(\.field) == ["due"])
        #expect(try store.save(Event(id: nil, due: Date(timeIntervalSince1970: 253_402_300_799)), form: form).isSuccess)
        #expect(try store.database.read { try $0.fetchValue(String.self, "SELECT due FROM events") }?.hasPrefix("9999-12-31") == true)
    }
}

/// A key naming another column than the table's is refused naming both:
/// "key 1 lacks column 'id' of people" left out the `uid` given.
@Suite struct WrongKeyColumnTests {
    @Test func theRefusalNamesTheColumnGivenAndTheKey() throws {
        let directory = try TemporaryDirectory()
        let store = try FormStore(path: directory.path("people.sqlite"))
        try store.database.write { try $0.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT)") }
        let form = Form("people") { Section { Field("Name", key: "name") } }.primaryKey("id")
        let refusal = #expect(throws: FormStoreError.self) { try FormSession.open(form, key: RecordKey("uid", 1), backend: store) }
        #expect(refusal?.message == "the key uid = 1 gives no id: people is keyed by id")
    }
}

/// NaN for a number where SQLite would store NULL is refused by the JSON and
/// typed doors as a value the field cannot hold (a `JSONBodyError`, a
/// service's 422); the store refused it only at the save, with an error a
/// service answered as its own (500).
@Suite struct NaNTests {
    struct Reading: Codable {
        var id: Int?
        var value: Double?
    }

    @Test func nanIsRefusedWhereTheStoreHoldsNone() throws {
        let directory = try TemporaryDirectory()
        let store = try FormStore(path: directory.path("r.sqlite"))
        try store.database.write { try $0.execute("CREATE TABLE readings (id INTEGER PRIMARY KEY, value REAL)") }
        let form = Form("readings", for: Reading.self) { Section { Field("Value", \Reading.value) } }.primaryKey("id")
        let session = FormSession.new(form, backend: store)
        let refusal = #expect(throws: JSONBodyError.self) { try session.apply(json: Data(#"{"value": "NaN"}"#.utf8)) }
        #expect(refusal?.errors.map(\.message) == ["Value cannot hold NaN"])
        #expect(throws: JSONBodyError.self) { try store.save(Reading(id: nil, value: .nan), form: form) }
        try session.apply(json: Data(#"{"value": "Infinity"}"#.utf8))
        #expect(try session.save().isSuccess)
    }
}
