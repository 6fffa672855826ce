import FormBasics
import Testing

/// `joined(with:)` (FormBasics) gives what the standard library's `joined(separator:)` gives.
@Suite struct JoiningTests {
    @Test(arguments: [[], [""], ["a"], ["a", "b"], ["", ""], ["\"id\"", "\"név\"", "🦊"], ["x", "", "y"]])
    func sameAsTheStandardLibrary(texts: [String]) {
        for separator in ["", ", ", " AND "] {
            #expect(texts.joined(with: separator) == texts.joined(separator: separator))
        }
    }
}
