import Foundation
import Testing

/// The JSON API with repeating groups: a record carries each group as an
/// array of row objects (the shape of `show --children --format json`), and a
/// PATCH or POST states a whole group the way `set --json --children` does.
@Suite(.serialized) struct ServeGroupAPITests {
    static let json = ["Content-Type": "application/json"]

    @Test func aRecordCarriesItsRowsAndTheirChangesMoveItsTag() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let read = try HTTPClient.request("GET", port: server.port, "/api/forms/invoice/records/1")
        #expect(read.status == 200, "\(read)")
        #expect(read.text == #"{"customer":"Ann","id":1,"lines":[{"amount":2.5,"id":10,"item":"Tea"},{"amount":3.5,"id":11,"item":"Cake"}],"total":6}"#)
        let tag = try #require(read.headers["etag"])
        try invoices.db.query("UPDATE invoice_line SET amount = 3 WHERE id = 10")
        let again = try HTTPClient.request("GET", port: server.port, "/api/forms/invoice/records/1")
        #expect(again.headers["etag"] != tag, "a row changed by another writer changes the record's tag")
    }

    @Test func patchUpdatesInsertsAndDeletesRowsInOneSave() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let tag = try #require(try HTTPClient.request("GET", port: server.port, "/api/forms/invoice/records/1").headers["etag"])
        let body = #"{"total": 4.5, "lines": [{"item": "Jam", "amount": 1.5}, {"id": 10, "amount": 3}]}"#
        let patched = try HTTPClient.request("PATCH", port: server.port, "/api/forms/invoice/records/1",
                                             headers: Self.json.merging(["If-Match": tag]) { $1 }, body: Data(body.utf8))
        #expect(patched.status == 200, "\(patched)")
        #expect(patched.text == #"{"changed":["total","lines"],"key":{"id":1},"outcome":"saved"}"#)
        #expect(try invoices.lines(1) == "1|Jam|1.5\n2|Tea|3\n")
        let stale = try HTTPClient.request("PATCH", port: server.port, "/api/forms/invoice/records/1",
                                           headers: Self.json.merging(["If-Match": tag]) { $1 }, body: Data(#"{"total": 1}"#.utf8))
        #expect(stale.status == 412)
    }

    @Test func rowErrorsAreNamedByTheirPlace() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let before = try invoices.db.dump()
        let unreadable = try HTTPClient.request("PATCH", port: server.port, "/api/forms/invoice/records/1", headers: Self.json,
                                                body: Data(#"{"lines": [{"id": 10, "amount": "lots"}, {"id": 11, "colour": "red"}]}"#.utf8))
        #expect(unreadable.status == 422, "\(unreadable)")
        let errors = try #require((try unreadable.json() as? [String: Any])?["errors"] as? [[String: Any]])
        #expect(errors.compactMap { $0["field"] as? String } == ["lines[#1].amount", "lines[#2].colour"])
        let invalid = try HTTPClient.request("PATCH", port: server.port, "/api/forms/invoice/records/1", headers: Self.json,
                                             body: Data(#"{"lines": [{"id": 10}, {"id": 11, "item": "Tea"}]}"#.utf8))
        #expect(invalid.status == 422, "\(invalid)")
        let outcome = try #require(try invalid.json() as? [String: Any])
        #expect(outcome["outcome"] as? String == "invalid")
        let fields = (outcome["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
        #expect(fields.contains("lines[#2].item"), "\(fields)")
        #expect(try invoices.db.dump() == before)
    }

    @Test func postCreatesARecordWithItsRows() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let created = try HTTPClient.request("POST", port: server.port, "/api/forms/invoice/records", headers: Self.json,
                                             body: Data(#"{"customer": "Cy", "total": 3, "lines": [{"item": "Jam", "amount": 1}, {"item": "Bread", "amount": 2}]}"#.utf8))
        #expect(created.status == 201, "\(created)")
        #expect(created.headers["location"] == "/api/forms/invoice/records/3")
        #expect(try invoices.lines(3) == "1|Jam|1\n2|Bread|2\n")
        let refused = try HTTPClient.request("POST", port: server.port, "/api/forms/invoice/records", headers: Self.json,
                                             body: Data(#"{"customer": "Di", "total": 0, "lines": []}"#.utf8))
        #expect(refused.status == 422, "\(refused)")
        #expect(refused.text.contains("\"code\":\"minRows\""))
    }
}
