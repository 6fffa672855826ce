import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// A conflict on a child row, resolved the way a front end does it: reload
/// (the row's base becomes what is stored now), then take theirs or keep yours.
@Suite struct ChildConflictResolutionTests {
    let directory: TemporaryDirectory
    let path: String
    let store: FormStore

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("app.sqlite")
        try ChildTableTests.shell(path, ChildTableTests.schema)
        store = try FormStore(path: path, sidecarDirectory: directory.url)
    }

    /// The conflict of a line's amount typed here while another application
    /// changed it, and the line's item too (a cell this session left alone).
    private func conflicted() throws -> (FormSession, FieldConflict) {
        let session = try FormSession.open(ChildTableTests.invoiceForm, key: RecordKey("id", 1), backend: store)
        try session.setRow("lines", session.rows("lines")[0].id, "amount", input: "4.5")
        try session.set("total", input: "7.5")
        try ChildTableTests.shell(path, "UPDATE invoice_line SET amount = 4.5, item = 'Green tea' WHERE id = 10;")
        try ChildTableTests.shell(path, "UPDATE invoice_line SET amount = 3.5 WHERE id = 10;")
        guard case .conflict(let conflicts) = try session.save(), let conflict = conflicts.first else {
            Issue.record("the save was not refused as a conflict")
            throw CancellationError()
        }
        #expect(conflicts == [FieldConflict(field: "lines[10].amount", base: 2.5, mine: 4.5, theirs: 3.5)])
        return (session, conflict)
    }

    @Test func takingTheirsLeavesTheRowAsStoredAndNothingToSave() throws {
        let (session, conflict) = try conflicted()
        _ = try session.reload()
        let row = session.rows("lines")[0]
        // The cell left alone here shows what the other application stored.
        #expect(row["item"] == "Green tea")
        _ = try session.setRow("lines", row.id, "amount", value: conflict.theirs)
        try session.set("total", input: "5.5")
        #expect(session.rows("lines")[0]["amount"] == conflict.theirs)
        #expect(session.rowChange("lines", row.id) == .unchanged)
        #expect(session.dirtyGroups.isEmpty)
        #expect(!session.isDirty)
    }

    @Test func keepingYoursSavesYoursOverTheirs() throws {
        let (session, _) = try conflicted()
        _ = try session.reload()
        #expect(session.dirtyGroups == ["lines"])
        #expect(session.rowChange("lines", session.rows("lines")[0].id) == .changed(fields: ["amount"], moved: false))
        guard case .saved = try session.save() else { Issue.record("not saved"); return }
        let lines = try store.database.read { conn in
            try conn.fetchAll("SELECT item || '|' || amount FROM invoice_line WHERE id = 10").map { row in
                if case .text(let text) = row[0] { return text }
                return "\(row[0])"
            }
        }
        // Yours where you typed; theirs in the cell you left alone.
        #expect(lines == ["Green tea|4.5"])
    }
}
