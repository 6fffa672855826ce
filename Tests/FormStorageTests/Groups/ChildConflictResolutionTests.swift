import FormCore
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

    /// The conflict of a line's amount typed here while another application changed it.
    private func conflicted() throws -> (FormSession, FieldConflict) {
        let session = try FormSession.open(ChildTableTests.invoiceForm, key: RecordKey("id", 1), backend: store)
        try session.setRow("lines", session.rows("lines")[0].id, "amount", input: "7")
        try ChildTableTests.shell(path, "UPDATE invoice_line SET amount = 9 WHERE id = 10;")
        guard case .conflict(let conflicts) = try session.save(), let conflict = conflicts.first else {
            Issue.record("the save was not refused as a conflict")
            throw CancellationError()
        }
        #expect(conflict.field == "lines[10].amount")
        return (session, conflict)
    }

    @Test func takingTheirsLeavesTheRowAsStoredAndNothingToSave() throws {
        let (session, conflict) = try conflicted()
        _ = try session.reload()
        let row = session.rows("lines")[0]
        _ = try session.setRow("lines", row.id, "amount", value: conflict.theirs)
        #expect(session.rows("lines")[0]["amount"] == conflict.theirs)
        #expect(session.rowChange("lines", row.id) == .unchanged)
        #expect(session.dirtyGroups.isEmpty)
        #expect(try session.save() == .unchanged)
    }

    @Test func keepingYoursSavesYoursOverTheirs() throws {
        let (session, _) = try conflicted()
        _ = try session.reload()
        #expect(session.dirtyGroups == ["lines"])
        guard case .saved = try session.save() else { Issue.record("not saved"); return }
        let amounts = try store.database.read { conn in
            try conn.fetchAll("SELECT amount || '' FROM invoice_line WHERE id = 10").map { row in
                if case .text(let text) = row[0] { return text }
                return "\(row[0])"
            }
        }
        #expect(amounts == ["7"])
    }
}
