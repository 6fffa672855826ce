import Testing
@testable import FormCore
import FormFoundation

/// Choices are values: machine input names a choice by its value or its
/// label, never by its position.
@Suite struct ChoiceMatchingTests {
    /// `CHECK (prio IN (0,1,2,5))`, as an inferred form reads it.
    static let prio = Field(key: "prio", label: "Priority", kind: .choice)
        .choices([0, 1, 2, 5].map { (value: FieldValue.int($0), label: "\($0)") })
    static let size = Field(key: "size", label: "Size", kind: .choice)
        .choices([(value: "s", label: "Small"), (value: "m", label: "Medium"), (value: "l", label: "s")])

    @Test(arguments: [("0", FieldValue.int(0)), ("2", .int(2)), ("5", .int(5)), (" 5 ", .int(5)), ("2.0", .int(2))])
    func aNumberTypedIsTheChoiceWithThatValue(_ typed: String, _ stored: FieldValue) {
        #expect(Self.prio.parse(typed) == .success(stored))
    }

    @Test(arguments: ["3", "4", "-1"])
    func aNumberThatIsNoChoicesValueIsRefusedNotTakenAsAPosition(_ typed: String) {
        guard case .failure(let error) = Self.prio.parse(typed) else {
            Issue.record("\(typed) was taken as a choice")
            return
        }
        #expect(error.message == "\"\(typed)\" is not one of the choices for Priority")
    }

    @Test func aValueWinsOverAnotherChoicesLabel() {
        #expect(Self.size.parse("s") == .success("s"), "the value s, not the choice labelled s")
        #expect(Self.size.parse("MEDIUM") == .success("m"))
    }

    @Test func theSessionMatchesValuesByNumberAndLabelNeverPosition() throws {
        var form = Form(name: "tasks", title: "Tasks", sections: [Section(nil, fields: [Self.prio, Self.size])])
        form.table = "tasks"
        let session = FormSession.new(form, backend: MemoryBackend(keyColumns: ["id"]))
        try session.set("prio", value: .double(2))
        #expect(session.value("prio") == .int(2))
        try session.set("prio", value: .text("5"))
        #expect(session.value("prio") == .int(5))
        try session.set("size", value: "Medium")
        #expect(session.value("size") == "m")
        try session.set("prio", value: .int(3))
        #expect(session.value("prio") == .int(3), "kept as given")
        #expect(session.validateAll().map(\.code) == ["choice"], "and refused: 3 is not a choice")
        try session.set("prio", input: "4")
        #expect(session.errors("prio").map(\.message) == ["\"4\" is not one of the choices for Priority"])
    }

    @Test func aJSONNumberNamesTheChoiceWithThatValue() {
        #expect(Self.prio.parse(value: FieldValue(json: 2)) == .success(.int(2)))
        #expect(Self.prio.parse(value: FieldValue(json: "2")) == .success(.int(2)))
        #expect(Self.prio.parse(value: FieldValue(json: 2.0)) == .success(.int(2)))
        if case .success = Self.prio.parse(value: FieldValue(json: "4")) { Issue.record("\"4\" chose the fourth choice") }
    }
}
