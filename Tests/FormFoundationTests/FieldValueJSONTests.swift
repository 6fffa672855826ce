import FormCore
import FormFoundation
import Foundation
import Testing

/// `FieldValue` and `JSONSerialization`'s objects (`NSNull`, `NSNumber`), both ways.
@Suite struct FieldValueJSONTests {
    @Test func fieldValuesConvertToAndFromJSONObjects() throws {
        let parsed = try JSONSerialization.jsonObject(with: Data(#"[true, 1, 1.5, "x", null, [0]]"#.utf8))
        #expect(FieldValue(json: parsed) == .list([true, 1, 1.5, "x", .null, .list([0])]))
        #expect(FieldValue(json: 7) == .int(7))
        #expect(FieldValue(json: false) == .bool(false))
        #expect(FieldValue(json: 2.0) == .double(2))
        #expect(FieldValue(json: ["a": 1]) == .null)

        let moment = Date(timeIntervalSince1970: 1_714_564_800)  // 2024-05-01T12:00:00Z
        let value = FieldValue.list([.date(moment), .data(Data([1, 2])), .null, 3])
        let data = try JSONSerialization.data(withJSONObject: value.jsonObject)
        #expect(String(decoding: data, as: UTF8.self) == #"["2024-05-01T12:00:00Z","AQI=",null,3]"#)
        #expect(FieldValue(json: "2024-05-01T12:00:00Z", kind: .datetime) == .date(moment))
        #expect(FieldValue(json: "2024-05-01T12:00:00Z", kind: .text) == .text("2024-05-01T12:00:00Z"))
        #expect(FieldValue(json: 2, kind: .decimal) == .double(2))
    }
}
