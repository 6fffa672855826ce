import Foundation
import Testing
@testable import FormCore

/// Drafts hold the rows too, and restore them by a three-way merge per row.
@Suite struct GroupDraftTests {
    static func session(_ backend: MemoryBackend) throws -> FormSession {
        try FormSession.open(GroupSessionTests.invoiceForm(), key: RecordKey("id", 1), backend: backend, drafts: backend,
                             autosave: .init(interval: .zero))
    }

    @Test func aDraftWithAddedRowsIsRestored() throws {
        let (backend, first) = try GroupSessionTests.stored()
        _ = first
        let editing = try Self.session(backend)
        let tea = editing.rows("lines")[0].id
        try editing.setRow("lines", tea, "amount", input: "4")
        let jam = try editing.addRow("lines", values: ["item": "Jam"])
        try editing.setRow("lines", jam, "amount", input: "lots")
        editing.close()
        let draft = try #require(try backend.drafts(form: "invoice", key: RecordKey("id", 1)).first)
        // Read back as the database keeps it.
        let reread = try Draft(encoded: draft.encoded())
        #expect(reread == draft)

        let reopened = try Self.session(backend)
        let restore = try reopened.restore(reread)
        #expect(restore.conflicts.isEmpty)
        #expect(reopened.rows("lines").map { $0["item"] } == ["Tea", "Cake", "Jam"])
        #expect(reopened.rows("lines")[0]["amount"] == 4.0)
        let restoredJam = reopened.rows("lines")[2].id
        #expect(reopened.rowText("lines", restoredJam, "amount") == "lots")
        #expect(reopened.rowChange("lines", restoredJam) == .added)
    }

    @Test func aRowChangedMeanwhileConflictsPerField() throws {
        let (backend, _) = try GroupSessionTests.stored()
        let editing = try Self.session(backend)
        let rows = editing.rows("lines")
        try editing.setRow("lines", rows[0].id, "amount", input: "4")
        try editing.setRow("lines", rows[1].id, "item", input: "Scone")
        editing.close()
        let draft = try #require(try backend.drafts(form: "invoice", key: RecordKey("id", 1)).first)
        backend.putRows([["id": 10, "item": "Tea", "amount": 2.0, "position": 1],
                         ["id": 11, "item": "Cake", "amount": 9.0, "position": 2]], group: "lines", of: RecordKey("id", 1))
        let reopened = try Self.session(backend)
        let restore = try reopened.restore(draft)
        #expect(restore.conflicts == [FieldConflict(field: "lines[10].amount", base: 2.5, mine: 4.0, theirs: 2.0)])
        #expect(restore.restored.contains("lines[11].item"))
        #expect(reopened.rows("lines").map { $0["item"] } == ["Tea", "Scone"])
        #expect(reopened.rows("lines").map { $0["amount"] } == [2.0, 9.0])
    }

    @Test func aRemovedRowStaysRemovedAndTheOrderComesBack() throws {
        let (backend, _) = try GroupSessionTests.stored()
        let editing = try Self.session(backend)
        let rows = editing.rows("lines")
        _ = try editing.addRow("lines", values: ["item": "Jam", "amount": 1.0], at: 0)
        try editing.removeRow("lines", rows[0].id)
        editing.close()
        let draft = try #require(try backend.drafts(form: "invoice", key: RecordKey("id", 1)).first)
        let reopened = try Self.session(backend)
        _ = try reopened.restore(draft)
        #expect(reopened.rows("lines").map { $0["item"] } == ["Jam", "Cake"])
        #expect(reopened.removedRows("lines").map { $0["item"] } == ["Tea"])
    }

    @Test func aNewRecordsDraftKeepsItsRows() throws {
        let backend = MemoryBackend()
        let session = FormSession.new(GroupSessionTests.invoiceForm(), backend: backend, drafts: backend,
                                      autosave: .init(interval: .zero))
        _ = try session.addRow("lines", values: ["item": "Pie"])
        session.close()
        let draft = try #require(try backend.drafts(form: "invoice", key: nil).first)
        let (resumed, _) = try FormSession.resume(draft, form: GroupSessionTests.invoiceForm(), backend: backend, drafts: backend)
        #expect(resumed.rows("lines").map { $0["item"] } == ["Pie"])
    }
}
