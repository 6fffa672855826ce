import Foundation
import Testing
@testable import FormCore

/// The one JSON reader (specs, the JSON door, import, `new --json`, `set :=`).
@Suite struct JSONReaderTests {
    private func failure(_ text: String, integersMustFit: Bool = false) -> JSONSyntaxError? {
        do {
            _ = try JSONReader.parse(Array(text.utf8), integersMustFit: integersMustFit)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsEveryKindOfValueInOrder() throws {
        let node = try JSONReader.parse(Array(#" {"b": [1, -2.5, 1e2, true, false, null], "a": "x\"\u00e9\ud83d\ude00\n"} "#.utf8))
        #expect(node == .object([
            JSONNode.Member(key: "b", value: .array([.integer(1), .number(-2.5, integer: nil), .number(100, integer: nil),
                                                      .bool(true), .bool(false), .null])),
            JSONNode.Member(key: "a", value: .string("x\"é😀\n")),
        ]))
    }

    @Test func aLoneSurrogateIsAnErrorAtItsLineAndColumn() {
        for text in [#""x\uD800""#, #""x\uD800y""#, #""x\uDC00""#, #""x\uD800\u0041""#, #""x\uDAED\uDAED""#] {
            let error = failure("[1,\n" + text + "]")
            #expect(error?.message == "unpaired surrogate in \\u escape", "\(text)")
            // Line 2: `"x` is two characters, the escape starts in column 3.
            #expect(error.map { [$0.line, $0.column] } == [2, 3], "\(text)")
        }
    }

    @Test func errorsNameLineAndColumnAndQuoteOnlyInTheMessage() {
        let duplicate = failure("{\n  \"key\": 1, \"key\": 2}")
        #expect(duplicate == JSONSyntaxError(line: 2, column: 13, message: "duplicate key 'key'", reason: "duplicate key"))
        #expect(failure("[1, 01]")?.message == "invalid number")
        #expect(failure("[1, 01]")?.reason == "invalid number")
        #expect(failure("[tru]")?.message == "invalid literal, expected 'true'")
        #expect(failure("[truex]")?.message == "invalid literal, expected 'true'")
        #expect(failure("\"é\u{01}\"")?.column == 3)
        #expect(failure("[1] 2")?.message == "unexpected text after the document")
        #expect(failure("[9223372036854775808]") == nil)
        #expect(failure("[9223372036854775808]", integersMustFit: true)?.message == "integer out of range")
        #expect(failure("[1e999]")?.message == "number out of range")
    }

    @Test func invalidUTF8InAStringIsNamedWhereItIs() {
        let error: JSONSyntaxError?
        do {
            _ = try JSONReader.parse([UInt8(ascii: "\""), UInt8(ascii: "a"), 0xFF, UInt8(ascii: "\"")])
            error = nil
        } catch let caught {
            error = caught
        }
        #expect(error.map { [$0.line, $0.column] } == [1, 3])
        #expect(error?.message == "invalid UTF-8")
    }

    @Test func textEndingInsideAValueIsTruncated() {
        for text in [#"{"a": "open"#, #"{"a": tr"#, #"{"a": 1"#, #"{"a": "\uD83D"#, #"{"a": "\uD83D\u"#, "[1,"] {
            var reader = JSONReader(Array(text.utf8))
            do {
                _ = try reader.value()
                Issue.record("\(text) was read")
            } catch {
                #expect(error.isTruncated, "\(text): \(error)")
            }
        }
        var reader = JSONReader(Array(#"{"a": "\uD83Dx"}"#.utf8))
        #expect(throws: JSONSyntaxError.self) { _ = try reader.value() }
    }

    @Test func theJSONDoorNamesTheLineAndColumnOfALoneSurrogate() throws {
        var form = Form(name: "note", sections: [Section(nil, fields: [Field(key: "title", kind: .text)])])
        form.table = "notes"
        let session = FormSession.new(form, backend: MemoryBackend(keyColumns: ["id"]))
        #expect(throws: JSONBodyError.malformed("the body is not JSON: line 1, column 12: unpaired surrogate in \\u escape")) {
            try session.apply(json: Data(#"{"title": "\uDEAD"}"#.utf8))
        }
    }
}
