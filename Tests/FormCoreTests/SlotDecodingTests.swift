@testable import FormCore
import Foundation
import Testing

/// A model decoded from a record's slots (`ModelCoder.decode(_:from: RecordValues)`):
/// keys are looked for in the layout's order first, and every other way of
/// asking must still give the same model and the same errors.
@Suite struct SlotDecodingTests {
    struct Address: Codable, Equatable {
        var city: String
        var zip: String?
    }

    struct Member: Codable, Equatable {
        var id: Int64
        var name: String
        var age: Int?
        var active: Bool
        var score: Double
        var address: Address
    }

    /// Slots in the order the form would lay them out: `id` is beside the slots, as a key column no field names.
    static let layout = RecordLayout(keys: ["name", "age", "active", "score", "address.city", "address.zip"])

    static func record(_ values: [String: FieldValue]) -> RecordValues { RecordValues(values, layout: layout) }

    static let ada = record(["id": 7, "name": "Ada", "age": .null, "active": .int(1), "score": .int(3),
                             "address.city": "London", "address.zip": "N1"])

    @Test func aModelIsReadFromItsSlotsAndTheKeyBesideThem() throws {
        let member = try ModelCoder.decode(Member.self, from: Self.ada)
        #expect(member == Member(id: 7, name: "Ada", age: nil, active: true, score: 3,
                                 address: Address(city: "London", zip: "N1")))
    }

    @Test func aValueLookedForNearASlotIsFoundWhereverItIs() {
        // Where it is looked for first (the first slot), elsewhere in the
        // layout, beside the slots, and nowhere: the same as the subscript.
        for key in ["name", "score", "address.zip", "id", "missing"] {
            #expect(Self.ada.value(of: key, near: -1) == Self.ada[key], "\(key)")
        }
        #expect(Self.ada.value(of: "age", near: -1) == .null)
        #expect(Self.ada.value(of: "missing", near: 3) == nil)
    }

    @Test func keysAskedInAnotherOrderThanTheLayoutsAreFound() throws {
        // Declared backwards: every key is out of the layout's order.
        struct Backwards: Decodable, Equatable {
            var zip: String
            var city: String
            var score: Double
            var name: String
            enum CodingKeys: String, CodingKey { case zip = "address.zip", city = "address.city", score, name }
        }
        let value = try ModelCoder.decode(Backwards.self, from: Self.ada)
        #expect(value == Backwards(zip: "N1", city: "London", score: 3, name: "Ada"))
    }

    @Test func customCodingKeysNameTheSlots() throws {
        struct Renamed: Decodable, Equatable {
            var fullName: String
            var town: String
            enum CodingKeys: String, CodingKey { case fullName = "name", town = "address" }
            enum TownKeys: String, CodingKey { case city }
            init(fullName: String, town: String) { (self.fullName, self.town) = (fullName, town) }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                fullName = try container.decode(String.self, forKey: .fullName)
                town = try container.nestedContainer(keyedBy: TownKeys.self, forKey: .town).decode(String.self, forKey: .city)
            }
        }
        #expect(try ModelCoder.decode(Renamed.self, from: Self.ada) == Renamed(fullName: "Ada", town: "London"))
    }

    @Test func optionalsAreNilForANullOrAMissingValueAndReadOtherwise() throws {
        struct Optionals: Decodable, Equatable { var age: Int?; var zip: String?; var nickname: String?; var name: String? }
        var values = Self.ada
        values["address.zip"] = nil
        // Top-level keys only: `zip` names no slot, `nickname` none at all.
        let found = try ModelCoder.decode(Optionals.self, from: values)
        #expect(found == Optionals(age: nil, zip: nil, nickname: nil, name: "Ada"))
        values["age"] = 36
        #expect(try ModelCoder.decode(Optionals.self, from: values).age == 36)
        #expect(try ModelCoder.decode(Member.self, from: values).address.zip == nil)
    }

    @Test func aMissingKeyIsNamedWithItsPath() throws {
        var values = Self.ada
        values["address.city"] = nil
        do {
            _ = try ModelCoder.decode(Member.self, from: values)
            Issue.record("decoded without a city")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "city")
            #expect(context.codingPath.map(\.stringValue) == ["address"])
        }
    }

    @Test func aValueOfAnotherTypeIsAMismatchAtItsKey() throws {
        var values = Self.ada
        values["active"] = "yes"
        do {
            _ = try ModelCoder.decode(Member.self, from: values)
            Issue.record("decoded \"yes\" as a Bool")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(Bool.self))
            #expect(context.codingPath.map(\.stringValue) == ["active"])
        }
        values["active"] = true
        values["age"] = .double(2.5)
        #expect(throws: DecodingError.self) { try ModelCoder.decode(Member.self, from: values) }
    }

    @Test func aKeyAskedTwiceReadsTheSameSlot() throws {
        struct Twice: Decodable, Equatable {
            var first: String
            var again: String
            var score: Double
            enum CodingKeys: String, CodingKey { case name, score }
            init(first: String, again: String, score: Double) { (self.first, self.again, self.score) = (first, again, score) }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                first = try container.decode(String.self, forKey: .name)
                again = try container.decode(String.self, forKey: .name)
                score = try container.decode(Double.self, forKey: .score)
            }
        }
        #expect(try ModelCoder.decode(Twice.self, from: Self.ada) == Twice(first: "Ada", again: "Ada", score: 3))
    }

    @Test func theSameModelComesFromSlotsAndFromADictionary() throws {
        let fromSlots = try ModelCoder.decode(Member.self, from: Self.ada)
        #expect(try ModelCoder.decode(Member.self, from: Self.ada.dictionary) == fromSlots)
    }

    /// Optional primitives read their slot once (`KeyedDecoder.decodeIfPresent`):
    /// NULL and a missing key are nil, a value of the wrong kind is the same
    /// error the standard library's way of asking gives.
    @Test func optionalPrimitivesAreNilForNullAndMissingAndRefuseTheWrongKind() throws {
        struct Optionals: Decodable, Equatable {
            var name: String?
            var age: Int?
            var active: Bool?
            var score: Double?
            var id: Int64?
            var missing: String?
        }
        let ada = try ModelCoder.decode(Optionals.self, from: Self.ada)
        #expect(ada == Optionals(name: "Ada", age: nil, active: true, score: 3, id: 7, missing: nil))
        let empty = try ModelCoder.decode(Optionals.self, from: Self.record(["name": .null, "score": .null]))
        #expect(empty == Optionals(name: nil, age: nil, active: nil, score: nil, id: nil, missing: nil))
        struct Wrong: Decodable { var age: Int? }
        #expect(throws: DecodingError.self) { try ModelCoder.decode(Wrong.self, from: Self.record(["age": "old"])) }
        // A nested value where a primitive is asked for is no primitive.
        struct Nested: Decodable { var address: String? }
        #expect(throws: DecodingError.self) { try ModelCoder.decode(Nested.self, from: Self.ada) }
    }
}
