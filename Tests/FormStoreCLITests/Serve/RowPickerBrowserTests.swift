import Foundation
import Testing

/// Foreign keys in a group's rows in a real browser (headless chromium
/// through chromedriver): the searched cell's choices filled as a key is
/// typed, a row's colour picked, and with script off a key referring to no
/// row refused beside its cell, then fixed and saved.
@Suite(.serialized) struct RowPickerBrowserTests {
    static let save = "form.record > .actions > button[type=submit]"

    @Test func aRowsChoicesAreSearchedAsTypedAndThePickedKeysSaved() throws {
        let db = try ServeRowPickerTests().database()
        let server = try ServeRun(db, ["--children"])
        let browser = try WebDriver()
        let url = "http://127.0.0.1:\(server.port)/forms/orders/1"
        try browser.open(url)
        try browser.replace("#g-order_line-2-product_sku", "Product 149")
        let labels = "return Array.from(document.getElementById('g-order_line-2-product_sku-list').options).map(function (o) { return o.value + ' ' + o.textContent; }).join('|')"
        #expect(try browser.wait { (try? browser.run(labels)) as? String == "149 Product 149" }, "the row's choices were not searched")
        try browser.replace("#g-order_line-2-product_sku", "149")
        try browser.click("#g-order_line-1-colour_id option[value='1']")
        try browser.click(Self.save)
        #expect(try browser.wait { try browser.exists(".notice.saved") })
        #expect(try db.query("SELECT id, product_sku, colour_id FROM order_line ORDER BY id") == "10|42|1\n11|149|\n")
        try browser.open(url)
        #expect(try browser.text("#g-order_line-2-product_sku-ref") == "Product 149")
        #expect(try browser.text("#g-order_line-1-colour_id-ref") == "Red")
    }

    @Test func withScriptOffARowsKeyReferringToNoRowIsRefusedBesideItsCell() throws {
        let db = try ServeRowPickerTests().database()
        let server = try ServeRun(db, ["--children"])
        let browser = try WebDriver(javaScript: false)
        try browser.open("http://127.0.0.1:\(server.port)/forms/orders/1")
        try browser.replace("#g-order_line-1-product_sku", "999")
        try browser.click(Self.save)
        #expect(try browser.wait { try browser.exists(".error-summary") })
        #expect(try browser.text("#g-order_line-1-product_sku-error") == "product_sku: no row of 'products' has sku = 999")
        #expect(try browser.attribute("#g-order_line-1-product_sku", "aria-invalid") == "true")
        #expect(try db.query("SELECT product_sku FROM order_line WHERE id = 10") == "42\n")
        try browser.replace("#g-order_line-1-product_sku", "8")
        try browser.click(Self.save)
        #expect(try browser.wait { try browser.exists(".notice.saved") })
        #expect(try db.query("SELECT product_sku FROM order_line WHERE id = 10") == "8\n")
        #expect(try browser.text("#g-order_line-1-product_sku-ref") == "Product 8")
    }
}
