import Foundation
import Testing
@testable import FormCore

/// A group bound to an array of structs by key path: rows without keys of
/// their own, kept as a whole array.
@Suite struct ArrayGroupTests {
    struct Order: Codable {
        struct Line: Codable {
            var product = ""
            var quantity = 0
        }
        var customer = ""
        var lines: [Line] = []
        var notes: [String] = []
    }

    static let form = Form("order", for: Order.self) {
        Section { Field("Customer", \Order.customer) }
        Section(group: \Order.lines, title: "Lines") {
            Field("Product", \Order.Line.product).required()
            Field("Quantity", \Order.Line.quantity)
        }
        .maxRows(2)
    }

    @Test func modelCoderGivesTheArrayAsRows() throws {
        let order = Order(customer: "Ann", lines: [.init(product: "Tea", quantity: 1)], notes: ["x"])
        #expect(try ModelCoder.encodeRows(order) == ["lines": [["product": "Tea", "quantity": 1]]])
        #expect(try ModelCoder.encode(order) == ["customer": "Ann", "notes": .list(["x"])])
    }

    @Test func theKeyPathNamesTheArraysCodingKey() throws {
        let group = try #require(Self.form.group("lines"))
        #expect(group.keyFields.isEmpty)
        #expect(group.fields.map(\.key) == ["product", "quantity"])
        #expect(group.keepsOrder)
        #expect(Self.form.definitionProblems.isEmpty)
    }

    @Test func aKeyPathWithoutACodingKeyIsADefinitionProblem() {
        struct Bad: Codable {
            var lines: [Order.Line] = []
            /// Computed: no coding key holds it.
            var copyWritable: [Order.Line] {
                get { [] }
                set { lines = newValue }
            }
        }
        let form = Form("bad", for: Bad.self) {
            Section(group: \Bad.copyWritable) { Field("Product", \Order.Line.product) }
        }
        #expect(form.definitionProblems.contains { $0.message.contains("no coding key found") })
    }

    @Test func theWholeArrayIsSavedAndConflictsAsAWhole() throws {
        let backend = MemoryBackend()
        let record = backend.put(["id": 1, "customer": "Ann"])
        backend.putRows([["product": "Tea", "quantity": 1], ["product": "Jam", "quantity": 2]], group: "lines", of: record.key)
        let session = try FormSession.open(Self.form, key: record.key, backend: backend)
        let jam = session.rows("lines")[1].id
        try session.moveRow("lines", jam, to: 0)
        try session.setRow("lines", jam, "quantity", input: "3")
        #expect(try session.save() == .saved(changed: ["lines"], key: record.key))
        #expect(backend.record(record.key)?.groups["lines"] == [["product": "Jam", "quantity": 3], ["product": "Tea", "quantity": 1]])

        _ = try session.addRow("lines", values: ["product": "Pie", "quantity": 1])
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("expected the third row to be refused")
            return
        }
        #expect(errors.map(\.code) == ["maxRows"])
        try session.removeRow("lines", session.rows("lines")[2].id)
        try session.removeRow("lines", session.rows("lines")[1].id)
        backend.putRows([["product": "Tea", "quantity": 9]], group: "lines", of: record.key)
        guard case .conflict(let conflicts) = try session.save() else {
            Issue.record("expected a conflict")
            return
        }
        #expect(conflicts.map(\.field) == ["lines"])
    }

    @Test func aDraftOfTheArrayIsRestoredWhileTheArrayIsUnchanged() throws {
        let backend = MemoryBackend()
        let record = backend.put(["id": 1, "customer": "Ann"])
        backend.putRows([["product": "Tea", "quantity": 1]], group: "lines", of: record.key)
        let editing = try FormSession.open(Self.form, key: record.key, backend: backend, drafts: backend,
                                           autosave: .init(interval: .zero))
        _ = try editing.addRow("lines", values: ["product": "Jam", "quantity": 2])
        editing.close()
        let draft = try #require(try backend.drafts(form: "order", key: record.key).first)
        let restored = try FormSession.open(Self.form, key: record.key, backend: backend)
        #expect(try restored.restore(draft).conflicts.isEmpty)
        #expect(restored.rows("lines").map { $0["product"] } == ["Tea", "Jam"])

        backend.putRows([], group: "lines", of: record.key)
        let later = try FormSession.open(Self.form, key: record.key, backend: backend)
        #expect(try later.restore(draft).conflicts.map(\.field) == ["lines"])
    }
}
