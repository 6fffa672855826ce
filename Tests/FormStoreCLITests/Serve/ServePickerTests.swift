import Foundation
import Testing

/// Foreign keys on the pages: a `<select>` of a small referenced table, a
/// searched text input for a large one, the label beside the key in tables,
/// and a value referring to no row refused beside its field.
@Suite(.serialized) struct ServePickerTests {
    /// An application's orders: a few customers, 150 products (more than a select lists).
    func database() throws -> DemoDatabase {
        try DemoDatabase(sql: """
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE products (sku INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
                                 product_sku INTEGER REFERENCES products(sku), note TEXT);
            INSERT INTO customers VALUES (1, 'Ann Lee'), (2, 'Bo Chen');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
                INSERT INTO products SELECT i, 'Product ' || i FROM n;
            INSERT INTO orders VALUES (1, 1, 42, 'first');
            """)
    }

    @Test func aSmallTableIsASelectAndALargeOneASearchedInput() throws {
        let db = try database()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/orders/1")
        #expect(page.status == 200, "\(page)")
        #expect(page.text.contains("<select name=\"customer_id\" id=\"f-customer_id\" aria-describedby=\"f-customer_id-hint f-customer_id-ref\">"), "\(page.text)")
        #expect(page.text.contains("<option value=\"1\" selected>Ann Lee (1)</option>"))
        #expect(page.text.contains("<option value=\"2\">Bo Chen (2)</option>"))
        #expect(page.text.contains("<span class=\"reference-label\" id=\"f-customer_id-ref\">Ann Lee</span>"))
        #expect(page.text.contains("value=\"42\" list=\"r-product_sku\" autocomplete=\"off\" data-choices=\"/api/forms/orders/choices/product_sku\">"))
        #expect(page.text.contains("<span class=\"reference-label\" id=\"f-product_sku-ref\">Product 42</span>"))

        let saved = try browser.submit(page, ["customer_id": "2", "product_sku": "7"])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT customer_id, product_sku FROM orders") == "2|7\n")
    }

    @Test func recordTablesShowTheLabelBesideTheKey() throws {
        let server = try ServeRun(try database())
        let list = try PageVisitor(port: server.port).get("/forms/orders")
        #expect(list.text.contains("<td>1 <span class=\"reference-label\">Ann Lee</span></td>"), "\(list.text)")
        #expect(list.text.contains("<td>42 <span class=\"reference-label\">Product 42</span></td>"))
    }

    @Test func theChoicesRouteSearchesTheReferencedRows() throws {
        let server = try ServeRun(try database())
        let found = try HTTPClient.request("GET", port: server.port, "/api/forms/orders/choices/product_sku?search=Product%2014")
        #expect(found.status == 200, "\(found)")
        let rows = try #require(try found.json() as? [[String: Any]])
        #expect(rows.first?["value"] as? Int == 14 && rows.first?["label"] as? String == "Product 14", "\(rows)")
        #expect(rows.count == 11)  // Product 14 and Product 140…149, by label
        #expect(try HTTPClient.request("GET", port: server.port, "/api/forms/orders/choices/note").status == 404)
    }

    @Test func aValueReferringToNoRowIsRefusedBesideItsField() throws {
        let db = try database()
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let reply = try browser.submit(try browser.get("/forms/orders/1"), ["product_sku": "999"])
        #expect(reply.status == 422, "\(reply)")
        #expect(reply.text.contains("<p class=\"error\" id=\"f-product_sku-error\">product_sku: no row of &#39;products&#39; has sku = 999</p>"),
                "\(reply.text)")
        #expect(reply.text.contains("aria-invalid=\"true\""))
        #expect(reply.text.contains("value=\"999\""))
        #expect(try db.query("SELECT product_sku FROM orders") == "42\n")
    }
}
