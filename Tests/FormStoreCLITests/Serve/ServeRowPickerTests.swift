import Foundation
import Testing

/// Foreign keys in a group's rows on the pages, as parent fields have them:
/// a `<select>` of a small referenced table, a searched text input for a
/// large one, the row's label beside its cell, and a value referring to no
/// row refused beside its cell. Through a client without script.
@Suite(.serialized) struct ServeRowPickerTests {
    /// An application's orders with lines: three colours, 150 products (more than a select lists).
    func database() throws -> DemoDatabase {
        try DemoDatabase(sql: """
            PRAGMA foreign_keys = ON;
            CREATE TABLE colours (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE products (sku INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, note TEXT);
            CREATE TABLE order_line (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id),
                                     product_sku INTEGER REFERENCES products(sku), colour_id INTEGER REFERENCES colours(id),
                                     qty INTEGER);
            INSERT INTO colours VALUES (1, 'Red'), (2, 'Green'), (3, 'Blue');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
                INSERT INTO products SELECT i, 'Product ' || i FROM n;
            INSERT INTO orders VALUES (1, 'first');
            INSERT INTO order_line VALUES (10, 1, 42, 2, 1), (11, 1, 7, NULL, 3);
            """)
    }

    @Test func aRowsForeignKeysArePickersWithTheirRowsLabels() throws {
        let db = try database()
        let server = try ServeRun(db, ["--children"])
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/orders/1")
        #expect(page.status == 200, "\(page)")
        let html = page.text
        #expect(html.contains("<select name=\"order_line[1].colour_id\" id=\"g-order_line-1-colour_id\" aria-describedby=\"g-order_line-1-colour_id-ref\">"), "\(html)")
        #expect(html.contains("<option value=\"2\" selected>Green (2)</option>"))
        #expect(html.contains("<span class=\"reference-label\" id=\"g-order_line-1-colour_id-ref\">Green</span>"))
        #expect(html.contains("<select name=\"order_line[2].colour_id\" id=\"g-order_line-2-colour_id\">"), "a row without a colour has no label")
        #expect(html.contains("name=\"order_line[1].product_sku\" id=\"g-order_line-1-product_sku\" aria-describedby=\"g-order_line-1-product_sku-ref\" value=\"42\" list=\"g-order_line-1-product_sku-list\" autocomplete=\"off\" data-choices=\"/api/forms/orders/choices/order_line.product_sku\">"))
        #expect(html.contains("<span class=\"reference-label\" id=\"g-order_line-2-product_sku-ref\">Product 7</span>"))

        let saved = try browser.submit(page, ["order_line[2].colour_id": "3", "order_line[1].product_sku": "99"])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT id, product_sku, colour_id FROM order_line ORDER BY id") == "10|99|2\n11|7|3\n")
        let again = try browser.get(try #require(saved.headers["location"]))
        #expect(again.text.contains("<span class=\"reference-label\" id=\"g-order_line-1-product_sku-ref\">Product 99</span>"))
    }

    @Test func theChoicesRouteSearchesARowFieldsReferencedRows() throws {
        let server = try ServeRun(try database(), ["--children"])
        let found = try HTTPClient.request("GET", port: server.port, "/api/forms/orders/choices/order_line.product_sku?search=Product%20149")
        #expect(found.status == 200, "\(found)")
        let rows = try #require(try found.json() as? [[String: Any]])
        #expect(rows.count == 1 && rows.first?["value"] as? Int == 149 && rows.first?["label"] as? String == "Product 149", "\(rows)")
    }

    @Test func aRowValueReferringToNoRowIsRefusedBesideItsCell() throws {
        let db = try database()
        let server = try ServeRun(db, ["--children"])
        let browser = PageVisitor(port: server.port)
        let before = try db.dump()
        let reply = try browser.submit(try browser.get("/forms/orders/1"), ["note": "second", "order_line[2].product_sku": "999"])
        #expect(reply.status == 422, "\(reply)")
        let html = reply.text
        #expect(html.contains("<p class=\"error\" id=\"g-order_line-2-product_sku-error\">product_sku: no row of &#39;products&#39; has sku = 999</p>"), "\(html)")
        #expect(html.contains("name=\"order_line[2].product_sku\" id=\"g-order_line-2-product_sku\" aria-invalid=\"true\" aria-describedby=\"g-order_line-2-product_sku-error\" value=\"999\""))
        #expect(html.contains("<a href=\"#g-order_line-2-product_sku\">"), "the summary links to the cell")
        #expect(html.contains("<p class=\"error\" id=\"g-order_line-1-product_sku-error\" hidden></p>"), "the other row is not blamed")
        #expect(html.contains("value=\"second\""), "what was typed is kept")
        #expect(try db.dump() == before, "nothing saved")
    }
}
