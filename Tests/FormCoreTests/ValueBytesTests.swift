import Foundation
import Testing
import FormCore

/// The byte pieces every JSON and CSV writer shares spell values as
/// Foundation and Swift do, so output read back gives the same value.
@Suite struct ValueBytesTests {
    private func spelled(_ body: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = []
        body(&out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: [Int64.min, -1_000_000, -1, 0, 7, 10, 9_007_199_254_740_993, Int64.max])
    func anIntegerIsItsDecimalDigits(value: Int64) {
        #expect(spelled { ValueBytes.appendInteger(value, to: &$0) } == String(value))
    }

    @Test func base64IsFoundationsWithItsPadding() {
        for count in 0...10 {
            let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 * 97 + 200) })
            let written = spelled { out in data.withUnsafeBytes { ValueBytes.appendBase64($0, to: &out) } }
            #expect(written == data.base64EncodedString(), "\(count) bytes")
            #expect(Data(base64Encoded: written) == data)
        }
    }

    @Test func hexIsTwoLowerCaseDigitsPerByte() {
        let data = Data([0x00, 0x0A, 0xFF, 0x10])
        #expect(spelled { out in data.withUnsafeBytes { ValueBytes.appendHex($0, to: &out) } } == "000aff10")
    }

    @Test func aDoubleIsTheShortestThatReadsBack() {
        for value in [0.1, 2.0, 1e-300, 2.5e300, -0.5, 1e20] {
            let written = spelled { ValueBytes.appendNumber(value, to: &$0) }
            #expect(Double(written) == value, "\(written)")
        }
    }

    @Test func textThatIsNoUTF8IsRepairedAsAStringWouldBe() {
        let bytes: [UInt8] = [0xFF, 0x41, 0xC3]
        let repaired = bytes.withUnsafeBufferPointer { buffer in
            ValueBytes.withValidUTF8(buffer) { (String(decoding: $0, as: UTF8.self), $1) }
        }
        #expect(repaired == ("\u{FFFD}A\u{FFFD}", true))
        let valid = Array("Zoë 🚀".utf8).withUnsafeBufferPointer { buffer in
            ValueBytes.withValidUTF8(buffer) { (String(decoding: $0, as: UTF8.self), $1) }
        }
        #expect(valid == ("Zoë 🚀", false))
        let quoted = bytes.withUnsafeBufferPointer { buffer in
            spelled { out in ValueBytes.withValidUTF8(buffer) { valid, _ in JSONText.appendQuoted(utf8: valid, to: &out) } }
        }
        #expect(quoted == JSONText.quoted(String(decoding: bytes, as: UTF8.self)))
    }
}
