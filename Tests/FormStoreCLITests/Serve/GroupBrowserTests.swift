import Foundation
import Testing

/// Repeating groups and Undo in a real browser (headless chromium through
/// chromedriver): what a person clicks and types, and what ends up stored.
@Suite(.serialized) struct GroupBrowserTests {
    static let save = "form.record > .actions > button[type=submit]"

    @Test func aRowIsAddedFilledAndSavedAndIsThereAfterAReload() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = try WebDriver()
        let url = "http://127.0.0.1:\(server.port)/forms/invoice/1"
        try browser.open(url)
        try browser.click("button[value='add 0 lines']")
        #expect(try browser.wait { try browser.exists("#g-lines-3-item") }, "no third row after Add a row")
        try browser.type("#g-lines-3-item", "Jam")
        try browser.type("#g-lines-3-amount", "1.5")
        try browser.click("button[value='up 3 lines']")
        #expect(try browser.wait { try browser.value("#g-lines-2-item") == "Jam" }, "the new row did not move up")
        try browser.replace("#f-total", "7.5")
        try browser.click(Self.save)
        #expect(try browser.wait { try browser.exists(".notice.saved") })
        #expect(try browser.text(".notice.saved") == "Saved: Total, Lines.")
        try browser.open(url)
        #expect(try browser.value("#g-lines-1-item") == "Tea")
        #expect(try browser.value("#g-lines-2-item") == "Jam")
        #expect(try browser.value("#g-lines-3-item") == "Cake")
        #expect(try invoices.lines(1) == "1|Tea|2.5\n2|Jam|1.5\n3|Cake|3.5\n")
    }

    @Test func aCellLeftWithABadValueShowsItsErrorBesideIt() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = try WebDriver()
        try browser.open("http://127.0.0.1:\(server.port)/forms/invoice/1")
        try browser.replace("#g-lines-2-amount", "lots")
        try browser.click("#f-customer")  // leaving the cell asks the server
        #expect(try browser.wait { (try? browser.text("#g-lines-2-amount-error")) == "Amount is not a number" }, "no error beside the cell")
        #expect(try browser.attribute("#g-lines-2-amount", "aria-invalid") == "true")
        #expect(try browser.attribute("#g-lines-2-amount", "aria-describedby") == "g-lines-2-amount-error")
        try browser.replace("#g-lines-2-amount", "3")
        try browser.click("#f-customer")
        #expect(try browser.wait { try browser.attribute("#g-lines-2-amount", "aria-invalid") == nil }, "the error stayed after the fix")
        #expect(try invoices.lines(1) == "1|Tea|2.5\n2|Cake|3.5\n", "leaving a cell saves nothing")
    }

    @Test func withScriptOffARowIsRemovedAndAnErrorShownBesideItsCell() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = try WebDriver(javaScript: false)
        try browser.open("http://127.0.0.1:\(server.port)/forms/invoice/1")
        try browser.replace("#g-lines-2-item", "Tea")
        try browser.click(Self.save)
        #expect(try browser.wait { try browser.exists(".error-summary") })
        #expect(try browser.text("#g-lines-2-item-error") == "Item of row 2 is the same as row 1's")
        #expect(try browser.attribute("#g-lines-2-item", "aria-invalid") == "true")
        try browser.click("button[value='remove 1 lines']")
        #expect(try browser.wait { try browser.text(".notice").contains("Row 1 of Lines was removed.") })
        #expect(try browser.value("#g-lines-1-item") == "Tea")
        try browser.replace("#f-total", "3.5")
        try browser.click(Self.save)
        #expect(try browser.wait { try browser.exists(".notice.saved") })
        #expect(try invoices.db.query("SELECT id, position, item FROM invoice_line WHERE invoice_id = 1") == "11|2|Tea\n", "the row kept its place: its stored position still follows the one before")
    }

    @Test func aSaveIsUndoneFromItsNoticeWithScriptOff() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let browser = try WebDriver(javaScript: false)
        let url = "http://127.0.0.1:\(server.port)/forms/register/1"
        try browser.open(url)
        try browser.replace("#f-phone", "555 222 3333")
        try browser.click("button[type=submit]")
        #expect(try browser.wait { try browser.exists(".step-form button") })
        #expect(try db.query("SELECT phone FROM registers WHERE id = 1") == "5552223333\n")
        try browser.click(".step-form button")
        #expect(try browser.wait { (try? browser.text(".notice.saved")) == "Undone: Phone." })
        #expect(try browser.value("#f-phone") == "(555) 123-4567")
        #expect(try db.query("SELECT phone FROM registers WHERE id = 1") == "5551234567\n")
        #expect(try browser.text(".step-form button") == "Redo")
        try browser.click(".step-form button")
        #expect(try browser.wait { (try? browser.text(".notice.saved")) == "Redone: Phone." })
        #expect(try db.query("SELECT phone FROM registers WHERE id = 1") == "5552223333\n")
    }
}
