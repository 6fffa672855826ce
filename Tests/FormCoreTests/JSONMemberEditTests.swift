import FormCore
import Testing

/// One member of a JSON object's text set in place: everything else stays
/// byte for byte (numbers as written, key order, spacing, escapes).
@Suite struct JSONMemberEditTests {
    @Test func aMemberIsReplacedAndTheRestKept() {
        let text = #"{"b": 1.50, "a": {"x": 12345678901234567890, "y": "\u00e9"}, "s": "[}\"{"}"#
        #expect(JSONMemberEdit.setting("2", at: ["a", "x"], in: text)
                == #"{"b": 1.50, "a": {"x": 2, "y": "\u00e9"}, "s": "[}\"{"}"#)
        #expect(JSONMemberEdit.setting(#""new""#, at: ["s"], in: text)
                == #"{"b": 1.50, "a": {"x": 12345678901234567890, "y": "\u00e9"}, "s": "new"}"#)
    }

    @Test func aMissingMemberIsAddedWithTheObjectsOnItsPath() {
        #expect(JSONMemberEdit.setting("1", at: ["n"], in: #"{"b": 1.50}"#) == #"{"b": 1.50,"n":1}"#)
        #expect(JSONMemberEdit.setting("1", at: ["n"], in: " { } ") == #" { "n":1} "#)
        #expect(JSONMemberEdit.setting("true", at: ["a", "b", "c"], in: #"{"a": {}}"#) == #"{"a": {"b":{"c":true}}}"#)
    }

    /// A key written with escapes is found by its text.
    @Test func keysAreComparedAsText() {
        #expect(JSONMemberEdit.setting("0", at: ["é"], in: #"{"\u00e9": 1}"#) == #"{"\u00e9": 0}"#)
        #expect(JSONMemberEdit.setting("0", at: ["😀"], in: #"{"\ud83d\ude00": 1}"#) == #"{"\ud83d\ude00": 0}"#)
    }

    /// No object to change in: the caller writes the document anew.
    @Test func whatIsNoObjectIsLeftToTheCaller() {
        #expect(JSONMemberEdit.setting("1", at: ["a"], in: "[1]") == nil)
        #expect(JSONMemberEdit.setting("1", at: ["a", "b"], in: #"{"a": 5}"#) == nil)
        #expect(JSONMemberEdit.setting("1", at: ["a"], in: #"{"a": 5"#) == nil)
        #expect(JSONMemberEdit.setting("1", at: ["a"], in: #"{"a": 5} x"#) == nil)
        // A document the one JSON reader refuses (a key given twice) is not edited in place.
        #expect(JSONMemberEdit.setting("3", at: ["k"], in: #"{"k": 1, "k": 2}"#) == nil)
        #expect(JSONMemberEdit.setting([(["a"], "1")], in: nil) == nil)
    }
}
