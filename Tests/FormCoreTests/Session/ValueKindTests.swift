import Foundation
import Testing
@testable import FormCore

/// `set(_:value:)` takes a value of the field's kind, converts one that loses
/// nothing, and refuses the rest before storage ever sees it.
@Suite struct ValueKindTests {
    static let form: Form = {
        var form = Form(name: "items", title: "Items", sections: [Section(nil, fields: [
            Field(key: "title", label: "Title"),
            Field(key: "count", label: "Count", kind: .integer),
            Field(key: "price", label: "Price", kind: .decimal),
            Field(key: "done", label: "Done", kind: .bool),
            Field(key: "due", label: "Due", kind: .date),
        ])])
        form.table = "items"
        return form
    }()

    func session() throws -> FormSession {
        let backend = MemoryBackend(keyColumns: ["id"])
        // Stored by another application: a number where the form expects text.
        backend.put(["id": 1, "title": .int(7), "count": 1, "price": 1.5, "done": false, "due": .null])
        return try FormSession.open(Self.form, key: RecordKey("id", 1), backend: backend)
    }

    @Test func aValueOfAnotherKindIsRefusedAndChangesNothing() throws {
        let session = try session()
        #expect(throws: FieldError(field: "title", code: "kind", message: "Title cannot hold a number")) {
            try session.set("title", value: .int(42))
        }
        #expect(throws: FieldError(field: "due", code: "kind", message: "Due cannot hold text")) {
            try session.set("due", value: "tomorrow")
        }
        #expect(throws: FieldError(field: "count", code: "kind", message: "Count cannot hold a number")) {
            try session.set("count", value: .double(2.5))
        }
        #expect(session.value("title") == .int(7))
        #expect(!session.isDirty)
    }

    @Test func losslessConversionsAreMade() throws {
        let session = try session()
        try session.set("price", value: .int(3))
        #expect(session.value("price") == .double(3))
        try session.set("count", value: .double(4))
        #expect(session.value("count") == .int(4))
        try session.set("done", value: .int(1))
        #expect(session.value("done") == .bool(true))
        try session.set("due", value: .date(Date(timeIntervalSince1970: 0)))
        try session.set("title", value: .null)
        #expect(session.value("title") == .null)
    }

    @Test func theStoredValueIsAlwaysTakenBack() throws {
        let session = try session()
        try session.set("title", value: "new")
        try session.set("title", value: .int(7))
        #expect(session.value("title") == .int(7))
        #expect(!session.isDirty)
    }
}
