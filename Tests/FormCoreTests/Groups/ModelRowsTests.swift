import Foundation
import Testing
@testable import FormCore

/// Arrays of structs read back from a group's rows: `ModelCoder.decode(_:from:rows:)`,
/// a session's `model(as:)`, and a `StructModel` with such an array.
@Suite struct ModelRowsTests {
    typealias Order = ArrayGroupTests.Order

    @Test func rowsDecodeIntoTheArrayOfStructs() throws {
        let order = Order(customer: "Ann", lines: [.init(product: "Tea", quantity: 1), .init(product: "Jam", quantity: 2)],
                          notes: ["x"])
        let back = try ModelCoder.decode(Order.self, from: try ModelCoder.encode(order), rows: try ModelCoder.encodeRows(order))
        #expect(back.customer == "Ann")
        #expect(back.lines.map(\.product) == ["Tea", "Jam"])
        #expect(back.lines.map(\.quantity) == [1, 2])
        #expect(back.notes == ["x"])
    }

    @Test func aRowOfTheWrongTypeIsNamedByItsPlace() throws {
        #expect {
            _ = try ModelCoder.decode(Order.self, from: ["customer": "Ann", "notes": .list([])],
                                      rows: ["lines": [["product": "Tea", "quantity": "many"]]])
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["lines", "0", "quantity"]
        }
    }

    @Test func aSessionsRowsBecomeTheModelsArray() throws {
        let backend = MemoryBackend()
        let record = backend.put(["id": 1, "customer": "Ann", "notes": .list([])])
        backend.putRows([["product": "Tea", "quantity": 1]], group: "lines", of: record.key)
        let session = try FormSession.open(ArrayGroupTests.form, key: record.key, backend: backend)
        _ = try session.addRow("lines", values: ["product": "Jam", "quantity": 3])
        let order = try session.model(as: Order.self)
        #expect(order.lines.map(\.product) == ["Tea", "Jam"])
        #expect(order.lines.map(\.quantity) == [1, 3])
    }

    @Test func aStructModelWithAnArrayOfStructsTakesAFieldsValue() throws {
        var model = StructModel(Order(customer: "Ann", lines: [.init(product: "Tea", quantity: 1)]))
        try model.setValue("Bo", forKey: "customer")
        #expect(model.model.customer == "Bo")
        #expect(model.model.lines.map(\.product) == ["Tea"])
    }
}
