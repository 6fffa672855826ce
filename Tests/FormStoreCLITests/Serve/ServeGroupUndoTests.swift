import Foundation
import Testing

/// Undo and Redo on a record's page of a save that wrote rows: the notice
/// offers Undo, which saves the previous rows again (a removed row inserted
/// again with its key, an added row deleted), then Redo.
@Suite(.serialized) struct ServeGroupUndoTests {
    @Test func aSaveWithRowsIsUndoneAndRedone() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = PageVisitor(port: server.port)
        let removed = try browser.submit(try browser.get("/forms/invoice/1"), ["_row": "remove 2 lines"])
        #expect(removed.status == 200, "\(removed)")
        let added = try browser.submit(removed, ["_row": "add 1 lines"])
        let saved = try browser.submit(added, ["lines[2].item": "Jam", "lines[2].amount": "1", "total": "3.5"])
        #expect(saved.status == 303, "\(saved)")
        #expect(try invoices.lines(1) == "1|Tea|2.5\n2|Jam|1\n")
        let after = try browser.get(saved.headers["location"]!)
        #expect(after.text.contains("Saved: Total, Lines."), "\(after.text)")
        let undone = try browser.submit(try ServeUndoTests.stepForm(after, "/forms/invoice/1/undo"), [:])
        #expect(undone.status == 303, "\(undone)")
        #expect(undone.headers["location"] == "/forms/invoice/1?undone=total%2Clines")
        #expect(try invoices.db.query("SELECT id, position, item, amount FROM invoice_line WHERE invoice_id = 1 ORDER BY position")
                == "10|1|Tea|2.5\n11|2|Cake|3.5\n", "Cake is back with its key; Jam is gone")
        #expect(try invoices.db.query("SELECT total FROM invoice WHERE id = 1") == "6\n")
        let afterUndo = try browser.get(undone.headers["location"]!)
        #expect(afterUndo.text.contains("Undone: Total, Lines."))
        let redone = try browser.submit(try ServeUndoTests.stepForm(afterUndo, "/forms/invoice/1/redo"), [:])
        #expect(redone.headers["location"] == "/forms/invoice/1?redone=total%2Clines", "\(redone)")
        #expect(try invoices.lines(1) == "1|Tea|2.5\n2|Jam|1\n")
    }

    @Test func anUndoOverAnotherWritersRowChangeIsRefusedAndSavesNothing() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = PageVisitor(port: server.port)
        let saved = try browser.submit(try browser.get("/forms/invoice/1"), ["lines[1].amount": "3", "total": "6.5"])
        #expect(saved.status == 303, "\(saved)")
        let after = try browser.get(saved.headers["location"]!)
        try invoices.db.query("UPDATE invoice_line SET amount = 9 WHERE id = 10")
        let refused = try browser.submit(try ServeUndoTests.stepForm(after, "/forms/invoice/1/undo"), [:])
        #expect(refused.status == 409, "\(refused)")
        #expect(refused.text.contains("Nothing was saved."))
        #expect(try invoices.lines(1) == "1|Tea|9\n2|Cake|3.5\n")
    }
}
