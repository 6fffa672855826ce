import Testing
@testable import FormCore

/// Every edit mode applies to a group as a whole, as it does to a field.
@Suite struct GroupModeTests {
    @Test func editModeNeedsBeginEditing() throws {
        let (backend, session) = try GroupSessionTests.stored(mode: .edit)
        let tea = session.rows("lines")[0].id
        #expect(throws: SessionError.self) { try session.addRow("lines") }
        #expect(throws: SessionError.self) { try session.setRow("lines", tea, "amount", input: "1") }
        #expect(throws: SessionError.self) { try session.removeRow("lines", tea) }
        #expect(session.whyGroupNotEditable("lines")?.contains("beginEditing") == true)
        try session.beginEditing()
        try session.setRow("lines", tea, "amount", input: "1")
        try session.set("total", input: "4")
        #expect(try session.save() == .saved(changed: ["total", "lines"], key: RecordKey("id", 1)))
        #expect(GroupSessionTests.storedLines(backend)[0]["amount"] == 1.0)
        #expect(!session.isEditing)
    }

    @Test func frozenRefusesEveryRowEdit() throws {
        let (_, session) = try GroupSessionTests.stored(mode: .frozen)
        let tea = session.rows("lines")[0].id
        #expect(throws: SessionError.self) { try session.addRow("lines") }
        #expect(throws: SessionError.self) { try session.moveRow("lines", tea, to: 1) }
        #expect(throws: SessionError.self) { try session.setRow("lines", tea, "item", input: "x") }
        #expect(session.whyGroupNotEditable("lines")?.contains("frozen") == true)
    }

    @Test func saveModeWritesOnlyOnSave() throws {
        let (backend, session) = try GroupSessionTests.stored(mode: .save)
        try session.moveRow("lines", session.rows("lines")[1].id, to: 0)
        #expect(GroupSessionTests.storedLines(backend).map { $0["item"] } == ["Tea", "Cake"])
        #expect(try session.save() == .saved(changed: ["lines"], key: RecordKey("id", 1)))
        #expect(GroupSessionTests.storedLines(backend).map { $0["item"] } == ["Cake", "Tea"])
    }

    @Test func freeModeSavesEachValidRowEditAtOnce() throws {
        let (backend, session) = try GroupSessionTests.stored(mode: .free)
        try session.moveRow("lines", session.rows("lines")[1].id, to: 0)
        #expect(GroupSessionTests.storedLines(backend).map { $0["item"] } == ["Cake", "Tea"])
        #expect(!session.isDirty)
        // A new line breaks the sum until the total follows: nothing is written before.
        let jam = try session.addRow("lines", values: ["item": "Jam", "amount": 1.0])
        #expect(GroupSessionTests.storedLines(backend).count == 2)
        try session.set("total", input: "6.5")
        try session.setRow("lines", jam, "amount", input: "1")
        #expect(GroupSessionTests.storedLines(backend).map { $0["item"] } == ["Cake", "Tea", "Jam"])
    }
}
