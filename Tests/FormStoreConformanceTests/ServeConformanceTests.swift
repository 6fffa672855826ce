import Foundation
import Testing

/// `formstore serve` on both backends: the pages and the JSON API read and
/// write the same records, in the column's own type.
@Suite struct ServeConformanceTests {
    @Test(arguments: BackendKind.allCases)
    func pagesAndTheJSONAPIWorkOnBothBackends(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let server = try ServeProcess(db: backend.location)
        let home = try server.request("GET", "/")
        #expect(home.status == 200)
        #expect(home.body.contains("href=\"/forms/people\""), "\(home.body)")
        let record = try server.request("GET", "/api/forms/people/records/1")
        #expect(record.status == 200)
        #expect(record.body.contains("\"name\":\"Ann Lee\""), "\(record.body)")
        let changed = try server.request("PATCH", "/api/forms/people/records/1", json: #"{"email": "ann@example.org"}"#)
        #expect(changed.status == 200, "\(changed.body)")
        #expect(changed.body.contains(#""changed":["email"]"#), "\(changed.body)")
        let created = try server.request("POST", "/api/forms/people/records", json: #"{"name": "Cy Moss", "born": "2001-02-03"}"#)
        #expect(created.status == 201 || created.status == 200, "\(created.body)")
        // NULL is what a NOT NULL column refuses ('' is a value it takes: docs/fidelity.md).
        let refused = try server.request("PATCH", "/api/forms/people/records/1", json: #"{"name": null}"#)
        #expect(refused.status == 422, "\(refused.body)")
        let page = try server.request("GET", "/forms/people/1")
        #expect(page.status == 200)
        #expect(page.body.contains("ann@example.org"))
        #expect(try backend.row("SELECT email FROM people WHERE id = 1") == ["ann@example.org"])
        #expect(try backend.row("SELECT born FROM people WHERE name = 'Cy Moss'") == ["2001-02-03"])
    }
}
