import Testing
@testable import FormCore

/// Patterns in the usual syntax, matched by the C library's POSIX engine:
/// the same answers a person expects from `\d`, `(?:…)`, brackets and lazy
/// quantifiers, and no backtracking blow-up.
@Suite struct PatternEngineTests {
    @Test func theUsualSyntaxMatchesWholeTexts() {
        let cases: [(pattern: String, text: String, matches: Bool)] = [
            (#"\d{3}-\d{4}"#, "555-1234", true),
            (#"\d{3}-\d{4}"#, "555-12345", false),
            (#"^[A-Z]{2}$"#, "CA", true),
            (#"(?:ab)+"#, "ababab", true),
            (#"[\w.-]+@[\w.-]+"#, "a.b-c@x.org", true),
            (#"[^\d]+"#, "abc", true),
            (#"[^\d]+"#, "ab1", false),
            (#"a.*?b"#, "axxb", true),
            (#"[\]\-]+"#, "]-]", true),
            (#"\s*x\s*"#, " \tx ", true),
            (#"[+-]?\d+(\.\d+)?"#, "-3.25", true),
            (#"colou?r"#, "colour", true),
            (#"\bword\b"#, "word", true),
            (#"..."#, "été", true), // characters, not bytes
            (TextPattern.email, "someone@example.org", true),
            (TextPattern.email, "someone@example", false),
        ]
        for c in cases {
            #expect(TextPattern.matches(c.pattern, c.text) == c.matches, "\(c.pattern) on \(c.text)")
        }
    }

    @Test func syntaxWithNoPOSIXFormIsAnInvalidPattern() {
        for pattern in ["(?=a)a", #"(a)\1"#, "[abc", #"\p{L}+"#, "(?<name>a)"] {
            #expect(TextPattern.matches(pattern, "a") == nil, "\(pattern)")
            #expect(TextPattern.problem(in: pattern) != nil, "\(pattern)")
        }
    }

    @Test func aLongTextAgainstAnAmbiguousPatternIsDecided() {
        let text = String(repeating: "a", count: 5_000) + "b"
        #expect(TextPattern.match("(a|aa)+$", text) == .notMatched)
        #expect(TextPattern.match("(a|aa|b)+$", text) == .matched)
    }
}
