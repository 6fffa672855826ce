import Testing
@testable import FormCore

/// An invoice with lines, in memory: the session edits the rows with the parent
/// and one save writes both.
@Suite struct GroupSessionTests {
    static func invoiceForm(mode: EditMode = .save) -> Form {
        Form("invoice") {
            Section {
                Field("Customer", key: "customer").required()
                Field("Total", key: "total", kind: .decimal)
            }
            Section(group: "lines", title: "Lines") {
                Field("Item", key: "item").required()
                Field("Amount", key: "amount", kind: .decimal)
            }
            .childTable("invoice_line", foreignKey: "invoice_id")
            .orderColumn("position")
            .minRows(1).maxRows(3).unique("item").sum("amount", into: "total")
        }.mode(mode)
    }

    /// A stored invoice 1 with two lines (ids 10 and 11).
    static func stored(mode: EditMode = .save) throws -> (MemoryBackend, FormSession) {
        let backend = MemoryBackend()
        let record = backend.put(["id": 1, "customer": "Ann", "total": 5.5])
        backend.putRows([["id": 10, "item": "Tea", "amount": 2.5, "position": 1],
                         ["id": 11, "item": "Cake", "amount": 3.0, "position": 2]], group: "lines", of: record.key)
        let session = try FormSession.open(invoiceForm(mode: mode), key: record.key, backend: backend)
        return (backend, session)
    }

    static func storedLines(_ backend: MemoryBackend) -> [[String: FieldValue]] {
        backend.record(RecordKey("id", 1))?.groups["lines"] ?? []
    }

    @Test func rowsLoadWithTheParentAndStartClean() throws {
        let (_, session) = try Self.stored()
        #expect(session.rows("lines").map { $0["item"] } == ["Tea", "Cake"])
        #expect(!session.isDirty)
        #expect(session.form.fields.map(\.key) == ["customer", "total"])
    }

    @Test func puttingARowBackMakesItClean() throws {
        let (_, session) = try Self.stored()
        let tea = session.rows("lines")[0].id
        try session.setRow("lines", tea, "amount", input: "9")
        #expect(session.rowChange("lines", tea) == .changed(fields: ["amount"], moved: false))
        #expect(session.dirtyGroups == ["lines"])
        try session.setRow("lines", tea, "amount", input: "2.5")
        #expect(session.rowChange("lines", tea) == .unchanged)
        #expect(!session.isDirty)
        try session.moveRow("lines", tea, to: 1)
        #expect(session.rowChange("lines", tea) == .changed(fields: [], moved: true))
        try session.moveRow("lines", tea, to: 0)
        #expect(!session.isDirty)
        let added = try session.addRow("lines", values: ["item": "Jam"])
        #expect(session.rowChange("lines", added) == .added)
        try session.removeRow("lines", added)
        #expect(!session.isDirty)
    }

    @Test func oneSaveInsertsUpdatesDeletesAndReorders() throws {
        let (backend, session) = try Self.stored()
        let rows = session.rows("lines")
        try session.setRow("lines", rows[0].id, "amount", input: "3")
        try session.removeRow("lines", rows[1].id)
        let jam = try session.addRow("lines", values: ["item": "Jam", "amount": 1.5], at: 0)
        try session.set("total", input: "4.5")
        let outcome = try session.save()
        #expect(outcome == .saved(changed: ["total", "lines"], key: RecordKey("id", 1)))
        let stored = Self.storedLines(backend)
        #expect(stored.map { $0["item"] } == ["Jam", "Tea"])
        #expect(stored.map { $0["amount"] } == [1.5, 3.0])
        #expect(stored[1]["id"] == 10 && stored[1]["position"] == 2)
        #expect(stored[0]["position"] == 1)
        #expect(!session.isDirty)
        #expect(session.rows("lines").first?.id == jam)
        #expect(session.rows("lines").first?.key != nil)
    }

    @Test func aRowKeepingItsPlaceKeepsItsStoredPosition() throws {
        let (_, session) = try Self.stored()
        _ = try session.addRow("lines", values: ["item": "Jam", "amount": 1.0])
        try session.set("total", input: "6.5")
        let changes = session.groupChanges
        #expect(changes.count == 1)
        #expect(changes[0].updates.isEmpty)
        #expect(changes[0].inserts.map { $0["position"] } == [3])
    }

    @Test func theRulesAcrossRowsRefuseTheSave() throws {
        let (backend, session) = try Self.stored()
        let rows = session.rows("lines")
        try session.setRow("lines", rows[1].id, "item", input: "Tea")
        try session.setRow("lines", rows[1].id, "amount", input: "4")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("expected the save to be refused")
            return
        }
        #expect(errors.map(\.field) == ["lines[#2].item", "total"])
        #expect(errors.map(\.code) == ["unique", "sum"])
        #expect(errors[1].message.contains("6.5"))
        #expect(Self.storedLines(backend)[1]["item"] == "Cake")
        try session.removeRow("lines", rows[0].id)
        try session.removeRow("lines", rows[1].id)
        try session.set("total", input: "0")
        guard case .invalid(let fewer) = try session.save() else {
            Issue.record("expected the save to be refused")
            return
        }
        #expect(fewer.map(\.code) == ["minRows"])
    }

    @Test func aNewRowIsValidatedWhole() throws {
        let (_, session) = try Self.stored()
        _ = try session.addRow("lines", values: ["amount": 0.0])
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("expected the save to be refused")
            return
        }
        #expect(errors.map(\.field) == ["lines[#3].item"])
        #expect(errors.map(\.code) == ["required"])
    }

    @Test func aRowFieldThatDoesNotParseKeepsItsInput() throws {
        let (_, session) = try Self.stored()
        let tea = session.rows("lines")[0].id
        try session.setRow("lines", tea, "amount", input: "lots")
        #expect(session.rowText("lines", tea, "amount") == "lots")
        #expect(session.rowErrors("lines", tea).map(\.code) == ["number"])
        #expect(session.hasUnsavedChanges)
        // The text is the person's change: the row and its group count it, and a save refuses it.
        #expect(session.rowChange("lines", tea) == .changed(fields: ["amount"], moved: false))
        #expect(session.dirtyGroups == ["lines"])
        guard case .invalid(let errors) = try session.save() else { Issue.record("saved text that is not a number"); return }
        #expect(errors.map(\.code) == ["number"])
        #expect(session.rowText("lines", tea, "amount") == "lots")
    }

    /// Text a row's cell holds that its field would not parse (`n/a` in a
    /// decimal column), typed again as shown, is no change, as for a field.
    @Test func aCellsStoredTextTypedAgainIsNoChange() throws {
        let backend = MemoryBackend()
        let record = backend.put(["id": 1, "customer": "Ann", "total": 5.5])
        backend.putRows([["id": 10, "item": "Tea", "amount": "n/a", "position": 1]], group: "lines", of: record.key)
        let session = try FormSession.open(Self.invoiceForm(), key: record.key, backend: backend)
        let tea = session.rows("lines")[0].id
        try session.setRow("lines", tea, "amount", input: "lots")
        #expect(session.rowChange("lines", tea) == .changed(fields: ["amount"], moved: false))
        try session.setRow("lines", tea, "amount", input: "n/a")
        #expect(session.rowChange("lines", tea) == .unchanged)
        #expect(session.rowErrors("lines", tea).isEmpty)
        #expect(!session.isDirty)
    }

    @Test func aChildConflictIsReportedPerRowAndField() throws {
        let (backend, session) = try Self.stored()
        let tea = session.rows("lines")[0].id
        try session.setRow("lines", tea, "amount", input: "3")
        try session.set("total", input: "6")
        backend.putRows([["id": 10, "item": "Tea", "amount": 2.0, "position": 1],
                         ["id": 11, "item": "Cake", "amount": 3.0, "position": 2]], group: "lines", of: RecordKey("id", 1))
        let outcome = try session.save()
        #expect(outcome == .conflict([FieldConflict(field: "lines[10].amount", base: 2.5, mine: 3.0, theirs: 2.0)]))
        #expect(backend.record(RecordKey("id", 1))?.values["total"] == 5.5)
        #expect(session.isDirty)
    }

    @Test func aRowDeletedMeanwhileIsAConflict() throws {
        let (backend, session) = try Self.stored()
        let cake = session.rows("lines")[1].id
        try session.setRow("lines", cake, "amount", input: "2")
        try session.set("total", input: "4.5")
        backend.putRows([["id": 10, "item": "Tea", "amount": 2.5, "position": 1]], group: "lines", of: RecordKey("id", 1))
        guard case .conflict(let conflicts) = try session.save() else {
            Issue.record("expected a conflict")
            return
        }
        #expect(conflicts.map(\.field) == ["lines[11]"])
    }

    @Test func cancelPutsTheRowsBack() throws {
        let (_, session) = try Self.stored()
        _ = try session.addRow("lines", values: ["item": "Jam"])
        try session.removeRow("lines", session.rows("lines")[0].id)
        try session.cancel()
        #expect(session.rows("lines").map { $0["item"] } == ["Tea", "Cake"])
        #expect(!session.isDirty)
    }

    @Test func aNewRecordIsSavedWithItsRows() throws {
        let backend = MemoryBackend()
        let session = FormSession.new(Self.invoiceForm(), backend: backend)
        try session.set("customer", input: "Bo")
        try session.set("total", input: "3")
        let row = try session.addRow("lines")
        try session.setRow("lines", row, "item", input: "Pie")
        try session.setRow("lines", row, "amount", input: "3")
        guard case .saved(let changed, let key) = try session.save() else {
            Issue.record("expected the save to pass")
            return
        }
        #expect(changed.contains("lines"))
        #expect(backend.record(key)?.groups["lines"]?.map { $0["item"] } == ["Pie"])
        #expect(backend.record(key)?.groups["lines"]?.first?["position"] == 1)
    }

    @Test func aGroupWithoutAnOrderColumnCannotBeReordered() throws {
        var form = Self.invoiceForm()
        form.sections[1].group?.orderColumn = nil
        let backend = MemoryBackend()
        let record = backend.put(["id": 1, "customer": "Ann", "total": 0])
        backend.putRows([["id": 10, "item": "Tea"], ["id": 11, "item": "Cake"]], group: "lines", of: record.key)
        let session = try FormSession.open(form, key: record.key, backend: backend)
        #expect(throws: SessionError.self) { try session.moveRow("lines", session.rows("lines")[1].id, to: 0) }
    }

    @Test func aStoredRowsKeyIsReadOnly() throws {
        var form = Self.invoiceForm()
        form.sections[1].group?.fields.insert(Field("Id", key: "id", kind: .integer), at: 0)
        let backend = MemoryBackend()
        let record = backend.put(["id": 1, "customer": "Ann", "total": 2.5])
        backend.putRows([["id": 10, "item": "Tea", "amount": 2.5, "position": 1]], group: "lines", of: record.key)
        let session = try FormSession.open(form, key: record.key, backend: backend)
        #expect(throws: SessionError.self) { try session.setRow("lines", session.rows("lines")[0].id, "id", input: "12") }
        let row = try session.addRow("lines")
        try session.setRow("lines", row, "id", input: "12")
        #expect(session.row("lines", row)?["id"] == 12)
    }

    @Test func theDefinitionChecksItsGroups() {
        let form = Form("bad") {
            Section { Field("Total", key: "total", kind: .decimal) }
            Section(group: "lines") { Field("Item", key: "item"); Field("Item", key: "item") }
                .unique("nope").sum("amount", into: "missing").minRows(3).maxRows(1)
        }
        let messages = form.definitionProblems.map(\.message)
        #expect(messages.contains { $0.contains("duplicate field key") })
        #expect(messages.contains { $0.contains("unknown row field \"nope\"") })
        #expect(messages.contains { $0.contains("unknown field \"missing\"") })
        #expect(messages.contains { $0.contains("minRows 3 is greater than maxRows 1") })
    }
}
