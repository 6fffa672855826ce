@testable import FormCore
import Testing

/// A property of an integer type narrower than `Int64` holds only its
/// range: a number past it is a validation error where it is typed, where
/// `set` took it and `save()` then threw as the struct could not hold it.
@Suite struct NarrowIntegerTests {
    struct Small: Codable {
        var level: UInt8 = 0
        var offset: Int16? = nil
        var count: UInt = 0
    }

    static let form = Form("small", for: Small.self) {
        Section {
            Field("Level", \Small.level)
            Field("Offset", \Small.offset)
            Field("Count", \Small.count)
        }
    }

    @Test func aNumberPastTheTypeIsAValidationError() throws {
        let binding = try FormBinding(form: Self.form, model: StructModel(Small()))
        let session = try FormSession.bound(to: binding)
        try session.set("level", input: "300")
        try session.set("offset", input: "-40000")
        try session.set("count", input: "-1")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("saved past the types' ranges")
            return
        }
        #expect(errors.map(\.field) == ["level", "offset", "count"])
        #expect(errors.map(\.code) == ["range", "range", "range"])
        try session.set("level", input: "255")
        try session.set("offset", input: "-32768")
        try session.set("count", input: "7")
        #expect(try session.save().isSuccess)
        #expect(binding.model.model.level == 255 && binding.model.model.offset == -32768 && binding.model.model.count == 7)
    }
}
