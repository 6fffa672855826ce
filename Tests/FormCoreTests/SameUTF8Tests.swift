import FormBasics
import Testing

/// `hasSameUTF8(as:)` (FormBasics) is byte equality of the UTF-8, whatever
/// the strings' storage: small or large, native or from a substring.
@Suite struct SameUTF8Tests {
    @Test func comparesBytesNotCanonicalEquivalence() {
        #expect("é" == "e\u{301}")
        #expect(!"é".hasSameUTF8(as: "e\u{301}"))
        #expect("é".hasSameUTF8(as: "\u{e9}"))
        #expect("".hasSameUTF8(as: ""))
        #expect(!"a".hasSameUTF8(as: "a\u{0}"))
        let long = String(repeating: "long text ", count: 20)
        #expect(long.hasSameUTF8(as: String(long.utf8.map { Character(Unicode.Scalar($0)) })))
        #expect(!long.hasSameUTF8(as: long + "."))
        #expect(String(long.dropFirst(5)).hasSameUTF8(as: String(long.dropFirst(5))))
        #expect(!long.dropLast().description.hasSameUTF8(as: long.dropFirst().description))
    }
}
