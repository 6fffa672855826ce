import Testing
@testable import FormCore

/// Reloading a record whose rows someone else changed while a row was edited
/// here: the edited cells stay, the cells left alone take what is stored.
@Suite struct GroupReloadTests {
    /// Invoice 1 with Tea's amount typed here, then Tea's amount and item
    /// changed by someone else.
    private func changedUnderneath() throws -> (MemoryBackend, FormSession, String) {
        let (backend, session) = try GroupSessionTests.stored()
        let tea = session.rows("lines")[0].id
        try session.setRow("lines", tea, "amount", input: "4.5")
        backend.putRows([["id": 10, "item": "Green tea", "amount": 3.5, "position": 1],
                         ["id": 11, "item": "Cake", "amount": 3.0, "position": 2]], group: "lines", of: RecordKey("id", 1))
        _ = try session.reload()
        return (backend, session, tea)
    }

    @Test func aCellLeftAloneTakesTheStoredValue() throws {
        let (_, session, tea) = try changedUnderneath()
        #expect(session.rows("lines")[0]["item"] == "Green tea")
        #expect(session.rows("lines")[0]["amount"] == 4.5)
        #expect(session.rowChange("lines", tea) == .changed(fields: ["amount"], moved: false))
    }

    @Test func takingTheirsLeavesTheRowUnchanged() throws {
        let (_, session, tea) = try changedUnderneath()
        try session.setRow("lines", tea, "amount", value: 3.5)
        #expect(session.rowChange("lines", tea) == .unchanged)
        #expect(session.dirtyGroups.isEmpty)
    }

    @Test func aCellTypedButNotParsedKeepsItsInput() throws {
        let (backend, session) = try GroupSessionTests.stored()
        let tea = session.rows("lines")[0].id
        try session.setRow("lines", tea, "item", input: "Mint")
        try session.setRow("lines", tea, "amount", input: "4x")
        backend.putRows([["id": 10, "item": "Tea", "amount": 9.0, "position": 1],
                         ["id": 11, "item": "Cake", "amount": 3.0, "position": 2]], group: "lines", of: RecordKey("id", 1))
        _ = try session.reload()
        #expect(session.rows("lines")[0]["item"] == "Mint")
        #expect(session.rows("lines")[0]["amount"] == 2.5)
        #expect(session.rowText("lines", tea, "amount") == "4x")
    }
}
