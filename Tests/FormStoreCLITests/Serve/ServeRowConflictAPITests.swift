import Foundation
import Testing

/// A `PATCH` naming the state its caller read (`FormStore-Base`, the `ETag`
/// of that read) is judged against it: a row someone else changed or deleted
/// since is a 409 with base, mine and theirs per row and field; their other
/// changes stand. Another writer here is `sqlite3`, after the caller's read.
@Suite(.serialized) struct ServeRowConflictAPITests {
    static func headers(base: String) -> [String: String] { ["Content-Type": "application/json", "FormStore-Base": base] }

    @Test func rowsChangedSinceTheCallersReadAreConflictsByRowAndField() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let read = try HTTPClient.request("GET", port: server.port, "/api/forms/invoice/records/1")
        let tag = try #require(read.headers["etag"])
        try invoices.db.query("UPDATE invoice_line SET amount = 3 WHERE id = 10; DELETE FROM invoice_line WHERE id = 11; UPDATE invoice SET total = 3 WHERE id = 1")
        let before = try invoices.db.dump()
        let body = #"{"lines": [{"id": 10, "amount": 4}, {"id": 11, "amount": 2}], "total": 6}"#
        let patched = try HTTPClient.request("PATCH", port: server.port, "/api/forms/invoice/records/1",
                                             headers: Self.headers(base: tag), body: Data(body.utf8))
        #expect(patched.status == 409, "\(patched)")
        #expect(patched.text == #"{"conflicts":[{"base":2.5,"field":"lines[10].amount","mine":4,"theirs":3},{"base":"stored","field":"lines[11]","mine":"changed","theirs":"deleted"}],"outcome":"conflict"}"#,
                "\(patched.text)")
        #expect(try invoices.db.dump() == before, "nothing saved")
    }

    @Test func anotherWritersChangesElsewhereStandAndTheCallersAreSaved() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let tag = try #require(try HTTPClient.request("GET", port: server.port, "/api/forms/invoice/records/1").headers["etag"])
        try invoices.db.query("UPDATE invoice SET customer = 'Bea' WHERE id = 1; UPDATE invoice_line SET item = 'Scone' WHERE id = 11")
        let body = #"{"lines": [{"id": 10, "amount": 4}, {"id": 11}], "total": 7.5}"#
        let patched = try HTTPClient.request("PATCH", port: server.port, "/api/forms/invoice/records/1",
                                             headers: Self.headers(base: tag), body: Data(body.utf8))
        #expect(patched.status == 200, "\(patched)")
        #expect(try invoices.lines(1) == "1|Tea|4\n2|Scone|3.5\n")
        #expect(try invoices.db.query("SELECT customer, total FROM invoice WHERE id = 1") == "Bea|7.5\n")
        let newTag = try #require(patched.headers["etag"])
        let read = try HTTPClient.request("GET", port: server.port, "/api/forms/invoice/records/1")
        #expect(read.headers["etag"] == newTag)
    }

    @Test func aBaseTheServerNeverSentIsAPreconditionFailure() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let patched = try HTTPClient.request("PATCH", port: server.port, "/api/forms/invoice/records/1",
                                             headers: Self.headers(base: "\"123\""), body: Data(#"{"total": 6}"#.utf8))
        #expect(patched.status == 412, "\(patched)")
    }
}
