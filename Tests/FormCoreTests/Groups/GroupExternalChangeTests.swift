import Testing
@testable import FormCore

/// Another writer's commit reaches the rows of an open session: rows and
/// cells left alone take it, an edited cell changed underneath is flagged per
/// row before any save, and the event says which rows.
@Suite struct GroupExternalChangeTests {
    static let invoice = RecordKey("id", 1)

    /// Invoice 1 (lines 10 Tea and 11 Cake) open and watched.
    private func watched() throws -> (MemoryBackend, FormSession, [SessionEvent]) {
        let (backend, session) = try GroupSessionTests.stored()
        try session.watchExternalChanges()
        return (backend, session, [])
    }

    @Test func untouchedRowsTakeAChangeAnAddedRowAndADeletion() throws {
        let (backend, session, _) = try watched()
        var events: [SessionEvent] = []
        let observation = session.observe { events.append($0) }
        backend.putRows([["id": 10, "item": "Green tea", "amount": 2.5, "position": 1],
                         ["id": 12, "item": "Jam", "amount": 1.0, "position": 2]], group: "lines", of: Self.invoice)
        let change = try #require(try session.takeExternalChanges())
        #expect(session.rows("lines").map { $0["item"] } == ["Green tea", "Jam"])
        #expect(!session.isDirty)
        #expect(change.rows.map(\.path) == ["lines[10]", "lines[12]", "lines[11]"])
        #expect(change.rows.map(\.kind) == [.changed(fields: ["item"]), .added, .deleted])
        #expect(change.rowConflicts.isEmpty)
        #expect(events.contains(.rowsChangedExternally(rows: change.rows, conflicts: [])))
        #expect(try session.takeExternalChanges() == nil, "nothing is read without a commit")
        observation.cancel()
    }

    @Test func anEditedRowKeepsItsEditAndItsOtherCellsTakeTheirs() throws {
        let (backend, session, _) = try watched()
        let tea = session.rows("lines")[0].id
        try session.setRow("lines", tea, "amount", input: "4")
        backend.putRows([["id": 10, "item": "Green tea", "amount": 2.5, "position": 1],
                         ["id": 11, "item": "Cake", "amount": 3.0, "position": 2],
                         ["id": 12, "item": "Jam", "amount": 1.0, "position": 3]], group: "lines", of: Self.invoice)
        let change = try #require(try session.takeExternalChanges())
        #expect(session.rows("lines").map { $0["item"] } == ["Green tea", "Cake", "Jam"])
        #expect(session.rows("lines")[0]["amount"] == 4.0)
        #expect(session.rowChange("lines", tea) == .changed(fields: ["amount"], moved: false))
        #expect(change.rows.map(\.kind) == [.changed(fields: ["item"]), .added])
        #expect(change.rowConflicts.isEmpty)
        try session.set("total", input: "8")
        #expect(try session.save() == .saved(changed: ["total", "lines"], key: Self.invoice))
        #expect(GroupSessionTests.storedLines(backend).map { $0["item"] } == ["Green tea", "Cake", "Jam"])
        #expect(GroupSessionTests.storedLines(backend).map { $0["amount"] } == [4.0, 3.0, 1.0])
    }

    @Test func aDirtyCellChangedUnderneathIsFlaggedBeforeTheSaveAndTheSaveIsRefused() throws {
        let (backend, session, _) = try watched()
        var events: [SessionEvent] = []
        let observation = session.observe { events.append($0) }
        let tea = session.rows("lines")[0].id
        try session.setRow("lines", tea, "amount", input: "4")
        backend.putRows([["id": 10, "item": "Tea", "amount": 9.0, "position": 1],
                         ["id": 11, "item": "Cake", "amount": 3.0, "position": 2]], group: "lines", of: Self.invoice)
        let change = try #require(try session.takeExternalChanges())
        let path = GroupPath.row("lines", RecordKey("id", 10)) + ".amount"
        let flagged = FieldConflict(field: path, base: 2.5, mine: 4.0, theirs: 9.0)
        #expect(change.rowConflicts == [flagged])
        #expect(session.externalRowConflicts == [flagged])
        #expect(events.contains(.rowsChangedExternally(rows: [], conflicts: [flagged])))
        #expect(session.rows("lines")[0]["amount"] == 4.0, "the edit stays")
        try session.set("total", input: "7")
        guard case .conflict(let conflicts) = try session.save() else { Issue.record("the save was not refused"); return }
        #expect(conflicts.map(\.field) == [path])
        #expect(GroupSessionTests.storedLines(backend).map { $0["amount"] } == [9.0, 3.0])
        observation.cancel()
    }

    @Test func aFlaggedCellIsResolvedByTakingTheirsOrKeepingMine() throws {
        let (backend, session, _) = try watched()
        let tea = session.rows("lines")[0].id
        try session.setRow("lines", tea, "amount", input: "4")
        backend.putRows([["id": 10, "item": "Tea", "amount": 9.0, "position": 1],
                         ["id": 11, "item": "Cake", "amount": 3.0, "position": 2]], group: "lines", of: Self.invoice)
        try session.takeExternalChanges()
        let path = GroupPath.row("lines", RecordKey("id", 10)) + ".amount"
        session.resolveExternalConflict(path, keepMine: true)
        #expect(session.externalRowConflicts.isEmpty)
        try session.set("total", input: "7")
        #expect(try session.save() == .saved(changed: ["total", "lines"], key: Self.invoice))
        #expect(GroupSessionTests.storedLines(backend).map { $0["amount"] } == [4.0, 3.0])

        try session.setRow("lines", tea, "amount", input: "5")
        backend.putRows([["id": 10, "item": "Tea", "amount": 6.0, "position": 1],
                         ["id": 11, "item": "Cake", "amount": 3.0, "position": 2]], group: "lines", of: Self.invoice)
        try session.takeExternalChanges()
        session.resolveExternalConflict(path, keepMine: false)
        #expect(session.rows("lines")[0]["amount"] == 6.0)
        #expect(!session.isGroupDirty("lines"))
    }

    @Test func aRowEditedHereAndDeletedThereIsFlaggedAndStays() throws {
        let (backend, session, _) = try watched()
        let cake = session.rows("lines")[1].id
        try session.setRow("lines", cake, "amount", input: "4")
        backend.putRows([["id": 10, "item": "Tea", "amount": 2.5, "position": 1]], group: "lines", of: Self.invoice)
        let change = try #require(try session.takeExternalChanges())
        let path = GroupPath.row("lines", RecordKey("id", 11))
        #expect(change.rowConflicts == [FieldConflict(field: path, base: "stored", mine: "changed", theirs: "deleted")])
        #expect(session.rows("lines").map { $0["item"] } == ["Tea", "Cake"])
        session.resolveExternalConflict(path, keepMine: true)
        try session.set("total", input: "6.5")
        #expect(try session.save() == .saved(changed: ["total", "lines"], key: Self.invoice))
        #expect(GroupSessionTests.storedLines(backend).map { $0["item"] } == ["Tea", "Cake"], "kept: saved again as a new row")
    }

    @Test func aRowRemovedHereAndChangedThereIsFlagged() throws {
        let (backend, session, _) = try watched()
        try session.removeRow("lines", session.rows("lines")[1].id)
        backend.putRows([["id": 10, "item": "Tea", "amount": 2.5, "position": 1],
                         ["id": 11, "item": "Carrot cake", "amount": 3.0, "position": 2]], group: "lines", of: Self.invoice)
        let change = try #require(try session.takeExternalChanges())
        let path = GroupPath.row("lines", RecordKey("id", 11))
        #expect(change.rowConflicts == [FieldConflict(field: path, base: "stored", mine: "deleted", theirs: "changed")])
        session.resolveExternalConflict(path, keepMine: false)
        #expect(session.rows("lines").map { $0["item"] } == ["Tea", "Carrot cake"], "their row is back")
        #expect(!session.isDirty)
    }
}
