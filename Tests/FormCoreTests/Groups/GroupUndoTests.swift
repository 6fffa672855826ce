import Testing
@testable import FormCore

/// Undo and redo of a save that wrote rows: a new save of the previous rows
/// (updated back, removed rows inserted again, added rows deleted), checked
/// for conflicts like any other.
@Suite struct GroupUndoTests {
    static let invoice = RecordKey("id", 1)

    /// Invoice 1 saved with Tea's amount changed, Cake removed and Jam added first.
    private func saved() throws -> (MemoryBackend, FormSession) {
        let (backend, session) = try GroupSessionTests.stored()
        let rows = session.rows("lines")
        try session.setRow("lines", rows[0].id, "amount", input: "3")
        try session.removeRow("lines", rows[1].id)
        try session.addRow("lines", values: ["item": "Jam", "amount": 1.5], at: 0)
        try session.set("total", input: "4.5")
        #expect(try session.save() == .saved(changed: ["total", "lines"], key: Self.invoice))
        return (backend, session)
    }

    private func lines(_ backend: MemoryBackend) -> [String] {
        GroupSessionTests.storedLines(backend).map { "\($0["id"] ?? .null) \($0["item"] ?? .null) \($0["amount"] ?? .null) \($0["position"] ?? .null)" }
    }

    @Test func undoingASaveWithRowsSavesThePreviousRowsAndRedoSavesThemAgain() throws {
        let (backend, session) = try saved()
        let afterSave = lines(backend)
        #expect(session.undoSaves)
        #expect(session.undoFields == ["total", "lines"])
        var events: [SessionEvent] = []
        let observation = session.observe { events.append($0) }
        #expect(try session.undo() == .saved(changed: ["total", "lines"], key: Self.invoice))
        #expect(lines(backend) == ["int(10) text(\"Tea\") double(2.5) int(1)", "int(11) text(\"Cake\") double(3.0) int(2)"])
        #expect(backend.record(Self.invoice)?.values["total"] == 5.5)
        #expect(session.rows("lines").map { $0["item"] } == ["Tea", "Cake"])
        #expect(!session.isDirty)
        #expect(events.contains(.undone(fields: ["total", "lines"])))
        #expect(session.canRedo)
        #expect(try session.redo() == .saved(changed: ["total", "lines"], key: Self.invoice))
        #expect(lines(backend) == afterSave)
        #expect(events.contains(.redone(fields: ["total", "lines"])))
        observation.cancel()
    }

    @Test func aSaveOfRowsAloneIsUndone() throws {
        let (backend, session) = try GroupSessionTests.stored()
        try session.setRow("lines", session.rows("lines")[1].id, "item", input: "Scone")
        #expect(try session.save() == .saved(changed: ["lines"], key: Self.invoice))
        #expect(session.undoFields == ["lines"])
        #expect(try session.undo() == .saved(changed: ["lines"], key: Self.invoice))
        #expect(GroupSessionTests.storedLines(backend).map { $0["item"] } == ["Tea", "Cake"])
    }

    @Test func anUndoOverAnotherWritersRowChangeIsAConflictAndWritesNothing() throws {
        let (backend, session) = try saved()
        let stored = GroupSessionTests.storedLines(backend)
        var changed = stored
        changed[1]["amount"] = 9.0  // Tea, changed by someone else after the save
        backend.putRows(changed, group: "lines", of: Self.invoice)
        try session.reload()
        let before = lines(backend)
        guard case .conflict(let conflicts)? = try session.undo() else { Issue.record("the undo was not refused"); return }
        #expect(conflicts == [FieldConflict(field: "lines[10].amount", base: 3.0, mine: 2.5, theirs: 9.0)])
        #expect(lines(backend) == before)
        #expect(session.canUndo, "the step stays")
        #expect(!session.isDirty)
    }

    @Test func anAwaitedUndoAndRedoTakeTheRowsBackToo() async throws {
        let (backend, session) = try saved()
        #expect(try await session.undo() == .saved(changed: ["total", "lines"], key: Self.invoice))
        #expect(GroupSessionTests.storedLines(backend).map { $0["item"] } == ["Tea", "Cake"])
        #expect(try await session.redo() == .saved(changed: ["total", "lines"], key: Self.invoice))
        #expect(GroupSessionTests.storedLines(backend).map { $0["item"] } == ["Jam", "Tea"])
    }

    /// A row added after a save is a step of its own, taken back first; the save is the next.
    @Test func aRowAddedAfterASaveIsUndoneBeforeTheSave() throws {
        let (_, session) = try saved()
        try session.addRow("lines", values: ["item": "Bun"])
        #expect(!session.undoSaves && session.undoFields == ["lines"])
        #expect(try session.undo() == nil)
        #expect(session.rows("lines").map { $0["item"] } == ["Jam", "Tea"])
        #expect(!session.isDirty)
        #expect(session.undoSaves)
    }

    // MARK: Row edits

    /// Keystrokes in one cell are one step; undone, the cell is back as
    /// loaded and the group clean; redone, the text typed is back.
    @Test func aCellsKeystrokesAreOneStep() throws {
        let (_, session) = try GroupSessionTests.stored()
        let tea = session.rows("lines")[0].id
        for typed in ["Te", "Tea ", "Tea c", "Tea cake"] { try session.setRow("lines", tea, "item", input: typed) }
        #expect(session.undoFields == ["lines"])
        var events: [SessionEvent] = []
        let observation = session.observe { events.append($0) }
        #expect(try session.undo() == nil)
        #expect(session.rows("lines")[0]["item"] == "Tea")
        #expect(!session.isDirty)
        #expect(events.contains(.undone(fields: ["lines"])))
        #expect(!session.canUndo)
        try session.redo()
        #expect(session.rows("lines")[0]["item"] == "Tea cake")
        #expect(session.rowChange("lines", tea) == .changed(fields: ["item"], moved: false))
        observation.cancel()
    }

    /// A row added, one moved, one removed (with text typed into it that did
    /// not parse) and a field between them: each a step, undone last first,
    /// the removed row back with what was typed in it and its error.
    @Test func rowsAddedMovedAndRemovedAreUndoneInTurn() throws {
        let (_, session) = try GroupSessionTests.stored()
        let (tea, cake) = (session.rows("lines")[0].id, session.rows("lines")[1].id)
        try session.setRow("lines", cake, "amount", input: "lots")
        let jam = try session.addRow("lines", values: ["item": "Jam"])
        try session.set("customer", input: "Bo")
        try session.moveRow("lines", jam, to: 0)
        try session.removeRow("lines", cake)
        #expect(session.rows("lines").map(\.id) == [jam, tea])

        try session.undo()  // the removal
        #expect(session.rows("lines").map(\.id) == [jam, tea, cake])
        #expect(session.rowText("lines", cake, "amount") == "lots")
        #expect(session.rowErrors("lines", cake).map(\.code) == ["number"])
        try session.undo()  // the move
        #expect(session.rows("lines").map(\.id) == [tea, cake, jam])
        try session.undo()  // the field
        #expect(session.value("customer") == "Ann")
        try session.undo()  // the row added
        #expect(session.rows("lines").map(\.id) == [tea, cake])
        try session.undo()  // the text typed
        #expect(session.rows("lines")[1]["amount"] == 3.0)
        #expect(session.rowErrors("lines", cake).isEmpty)
        #expect(!session.isDirty && !session.canUndo)

        for _ in 0..<5 { try session.redo() }
        #expect(session.rows("lines").map(\.id) == [jam, tea])
        #expect(session.value("customer") == "Bo")
        #expect(!session.canRedo)
    }

    /// Saved, the row steps are the save's: one undo takes back the save with them.
    @Test func aSaveTakesThePlaceOfItsRowSteps() throws {
        let (backend, session) = try GroupSessionTests.stored()
        try session.setRow("lines", session.rows("lines")[1].id, "item", input: "Scone")
        try session.addRow("lines", values: ["item": "Jam"])
        #expect(try session.save() == .saved(changed: ["lines"], key: Self.invoice))
        #expect(session.undoSaves)
        #expect(try session.undo() == .saved(changed: ["lines"], key: Self.invoice))
        #expect(GroupSessionTests.storedLines(backend).map { $0["item"] } == ["Tea", "Cake"])
        #expect(!session.canUndo)
    }
}
