@testable import FormCore
import Testing

/// `RecordValues.dictionary` copies the layout's dictionary of every key and
/// writes each slot's value by index: it must hold exactly the keys that have
/// a value, whatever is empty, beside the slots, or changed since.
@Suite struct RecordValuesDictionaryTests {
    /// Small keys, a key too long to be stored inline, and a Unicode one.
    static let layout = RecordLayout(keys: ["name", "age", "a key far too long to be a small string", "café", "zip"])

    @Test func everySlotWithAValueIsAKeyAndNoOtherIs() {
        var values = RecordValues(layout: Self.layout)
        #expect(values.dictionary.isEmpty)
        values["name"] = "Ada"
        values["café"] = .null
        values["a key far too long to be a small string"] = 36
        #expect(values.dictionary == ["name": "Ada", "café": .null, "a key far too long to be a small string": 36])
        values["zip"] = "N1"
        values["name"] = nil
        #expect(values.dictionary == ["café": .null, "a key far too long to be a small string": 36, "zip": "N1"])
    }

    @Test func keysBesideTheSlotsAreKept() {
        var values = RecordValues(["name": "Ada", "id": 7, "age": 36, "age ": "not a slot"], layout: Self.layout)
        #expect(values.others == ["id": 7, "age ": "not a slot"])
        #expect(values.dictionary == ["name": "Ada", "id": 7, "age": 36, "age ": "not a slot"])
        values["id"] = nil
        #expect(values.dictionary == ["name": "Ada", "age": 36, "age ": "not a slot"])
    }

    @Test func dictionariesBuiltOneAfterAnotherShareNothing() {
        // Each is a copy of the layout's: a write to one, or to the record
        // after it was built, shows in no other.
        var values = RecordValues(["name": "Ada", "age": 36], layout: Self.layout)
        var first = values.dictionary
        values["age"] = 37
        let second = values.dictionary
        first["name"] = "Grace"
        #expect(second == ["name": "Ada", "age": 37])
        #expect(first == ["name": "Grace", "age": 36])
        #expect(RecordValues(layout: Self.layout).dictionary.isEmpty)
        #expect(values.dictionary == second)
    }

    @Test func aFullRecordRoundTripsThroughItsDictionary() {
        let full: [String: FieldValue] = ["name": "Ada", "age": 36, "a key far too long to be a small string": .bool(true),
                                          "café": .double(2.5), "zip": ""]
        let values = RecordValues(full, layout: Self.layout)
        #expect(values.dictionary == full)
        #expect(RecordValues(values.dictionary, layout: Self.layout) == values)
    }
}
