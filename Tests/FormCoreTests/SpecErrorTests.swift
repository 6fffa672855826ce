import Foundation
import Testing
@testable import FormCore

@Suite struct SpecErrorTests {
    /// A spec with one section whose fields are given, plus top-level extras.
    static func spec(fields: String, extra: String = "") -> String {
        """
        {"formstore": 1, "name": "f", \(extra) "sections": [
          {"title": "A", "fields": [{"key": "a", "label": "A"}]},
          {"title": "B", "fields": [\(fields)]}
        ]}
        """
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        let name: String
        let json: String
        let path: String
        let message: String
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "not JSON", json: "{\"formstore\": 1,\n \"name\": }", path: "$",
                  message: "not a FormStore spec: invalid JSON at line 2, column 10 (unexpected character)"),
        Malformed(name: "missing format version", json: #"{"name": "f", "sections": []}"#, path: "$",
                  message: "not a FormStore spec: expected a JSON object with a \"formstore\" key"),
        Malformed(name: "future format version", json: #"{"formstore": 2, "name": "f", "sections": []}"#, path: "$.formstore",
                  message: "unsupported spec format 2; this FormStore reads 1"),
        Malformed(name: "unknown kind", json: spec(fields: #"{"key": "b"}, {"key": "c"}, {"key": "x", "kind": "colour"}"#),
                  path: "$.sections[1].fields[2].kind",
                  message: "unknown kind \"colour\"; expected one of " + FieldKind.allCases.map(\.rawValue).joined(separator: ", ")),
        Malformed(name: "unknown field key with suggestion", json: spec(fields: #"{"key": "b", "lable": "B"}"#),
                  path: "$.sections[1].fields[0].lable", message: "unknown key \"lable\"; did you mean \"label\"?"),
        Malformed(name: "unknown top-level key", json: spec(fields: "", extra: #""titel": "F","#),
                  path: "$.titel", message: "unknown key \"titel\"; did you mean \"title\"?"),
        Malformed(name: "date format with a letter dates do not know",
                  json: spec(fields: #"{"key": "b", "kind": "date", "format": "QQQQ-MM"}"#),
                  path: "$.sections[1].fields[0].format",
                  message: "'Q' is no date letter: a format uses y M d H h a m s S E, and text in single quotes"),
        Malformed(name: "date transform with a letter dates do not know",
                  json: spec(fields: #"{"key": "b", "transforms": [{"date": "yyyy-ww"}]}"#),
                  path: "$.sections[1].fields[0].transforms[0].date",
                  message: "'w' is no date letter: a format uses y M d H h a m s S E, and text in single quotes"),
        Malformed(name: "date format with a quote left open",
                  json: spec(fields: #"{"key": "b", "kind": "date", "format": "yyyy 'on"}"#),
                  path: "$.sections[1].fields[0].format",
                  message: "a quote is left open: text in a format stands between two single quotes ('' is one)"),
        Malformed(name: "date format of literal text alone",
                  json: spec(fields: #"{"key": "b", "kind": "date", "format": "'literal only'"}"#),
                  path: "$.sections[1].fields[0].format",
                  message: "the format holds no date letter (y M d H h a m s S E), so every date would show as the same text"),
        Malformed(name: "default outside the field's range",
                  json: spec(fields: #"{"key": "b", "kind": "integer", "min": 0, "max": 10, "default": 50}"#),
                  path: "$.sections[1].fields[0].default",
                  message: "the default breaks the field's own rule: b must be between 0 and 10"),
        Malformed(name: "wrong type", json: spec(fields: #"{"key": "b", "required": "yes"}"#),
                  path: "$.sections[1].fields[0].required", message: "expected true or false, found a string"),
        Malformed(name: "fractional length", json: spec(fields: #"{"key": "b", "minLength": 2.5}"#),
                  path: "$.sections[1].fields[0].minLength", message: "expected an integer, found a number"),
        Malformed(name: "duplicate field key", json: spec(fields: #"{"key": "b"}, {"key": "a"}"#),
                  path: "$.sections[1].fields[1].key", message: "duplicate field key \"a\" (first at $.sections[0].fields[0].key)"),
        Malformed(name: "rule names unknown field", json: spec(fields: "", extra: #""rules": [{"type": "equal", "field": "a", "other": "nope"}],"#),
                  path: "$.rules[0].other", message: "unknown field \"nope\""),
        Malformed(name: "unknown rule type", json: spec(fields: "", extra: #""rules": [{"type": "same", "field": "a", "other": "a"}],"#),
                  path: "$.rules[0].type", message: "unknown rule type \"same\"; expected one of equal"),
        Malformed(name: "condition names unknown field",
                  json: spec(fields: #"{"key": "b", "hiddenWhen": {"all": ["editing", {"field": "ghost", "empty": true}]}}"#),
                  path: "$.sections[1].fields[0].hiddenWhen.all[1].field", message: "unknown field \"ghost\""),
        Malformed(name: "bad condition", json: spec(fields: #"{"key": "b", "disabledWhen": {"field": "a"}}"#),
                  path: "$.sections[1].fields[0].disabledWhen",
                  message: "a condition on a field needs exactly one of \"equals\", \"notEquals\", \"empty\""),
        Malformed(name: "default not among choices",
                  json: spec(fields: #"{"key": "b", "kind": "choice", "choices": ["usa", "de"], "default": "fr"}"#),
                  path: "$.sections[1].fields[0].default", message: "default \"fr\" is not among the choices usa, de"),
        Malformed(name: "minLength above maxLength", json: spec(fields: #"{"key": "b", "minLength": 5, "maxLength": 3}"#),
                  path: "$.sections[1].fields[0].minLength", message: "minLength 5 is greater than maxLength 3"),
        Malformed(name: "bad regex", json: spec(fields: #"{"key": "b", "pattern": "[a-z"}"#),
                  path: "$.sections[1].fields[0].pattern", message: "invalid regular expression \"[a-z\""),
        // Refused by the C library itself (not by FormStore's own reading first): its refusal was freed twice, a crash.
        Malformed(name: "bad regex the C library refuses", json: spec(fields: #"{"key": "b", "pattern": "x("}"#),
                  path: "$.sections[1].fields[0].pattern", message: "invalid regular expression \"x(\""),
        Malformed(name: "bad repetition", json: spec(fields: #"{"key": "b", "pattern": "a{L}"}"#),
                  path: "$.sections[1].fields[0].pattern", message: "invalid regular expression \"a{L}\""),
        Malformed(name: "min above max", json: spec(fields: #"{"key": "b", "kind": "integer", "min": 10, "max": 1}"#),
                  path: "$.sections[1].fields[0].min", message: "min 10 is greater than max 1"),
        Malformed(name: "equalTo unknown field", json: spec(fields: #"{"key": "b", "equalTo": "c"}"#),
                  path: "$.sections[1].fields[0].equalTo", message: "unknown field \"c\""),
        Malformed(name: "bad choice entry", json: spec(fields: #"{"key": "b", "kind": "choice", "choices": ["x", {"value": "y", "lable": "Y"}]}"#),
                  path: "$.sections[1].fields[0].choices[1].lable", message: "unknown key \"lable\"; did you mean \"label\"?"),
        Malformed(name: "unknown transform", json: spec(fields: #"{"key": "b", "transforms": ["trim", "upper"]}"#),
                  path: "$.sections[1].fields[0].transforms[1]",
                  message: "unknown transform \"upper\"; expected one of trim, hex, blobLiteral, removeSpaces, uppercase, lowercase, digitsOnly, phone, integer, decimal, yesNo, choiceLabel, list"),
        Malformed(name: "style on a text field", json: spec(fields: #"{"key": "b", "style": "segmented"}"#),
                  path: "$.sections[1].fields[0].style", message: "\"style\" applies to choice, multichoice and action fields, not text"),
        Malformed(name: "date default in the wrong format", json: spec(fields: #"{"key": "b", "kind": "date", "default": "1999-12-31"}"#),
                  path: "$.sections[1].fields[0].default", message: "\"1999-12-31\" is not a date in the format \"MM/dd/yyyy\""),
        Malformed(name: "missing field key", json: spec(fields: #"{"label": "B"}"#),
                  path: "$.sections[1].fields[0]", message: "missing required key \"key\""),
        Malformed(name: "unknown mode", json: spec(fields: "", extra: #""mode": "frozn","#),
                  path: "$.mode", message: "unknown mode \"frozn\"; expected one of edit, frozen, save, free (did you mean \"frozen\"?)"),
        Malformed(name: "warning must be text or false", json: spec(fields: "", extra: #""unsavedChangesWarning": true,"#),
                  path: "$.unsavedChangesWarning", message: "expected a string or false, found a boolean"),
        Malformed(name: "duplicate JSON key", json: "{\"formstore\": 1, \"name\": \"f\", \"name\": \"g\", \"sections\": []}", path: "$",
                  message: "not a FormStore spec: invalid JSON at line 1, column 31 (duplicate key)"),
        Malformed(name: "two high surrogates", json: #"{"formstore": 1, "name": "\uDAED\uDAED", "sections": []}"#,
                  path: "$", message: "not a FormStore spec: invalid JSON at line 1, column 27 (unpaired surrogate in \\u escape)"),
        Malformed(name: "JSON that is not a spec", json: #"{"users": [{"kind": "$6$SECRETHASH$abc"}]}"#, path: "$",
                  message: "not a FormStore spec: expected a JSON object with a \"formstore\" key"),
        Malformed(name: "a shadow file", json: "root:$6$SECRETHASH$abc:19000:0:99999:7:::\n", path: "$",
                  message: "not a FormStore spec: invalid JSON at line 1, column 1 (unexpected character)"),
        Malformed(name: "negative maxLength transform", json: spec(fields: #"{"key": "b", "transforms": ["trim", {"maxLength": -1}]}"#),
                  path: "$.sections[1].fields[0].transforms[1].maxLength", message: "must be at least 1, not -1"),
        Malformed(name: "zero maxLength transform", json: spec(fields: #"{"key": "b", "transforms": [{"maxLength": 0}]}"#),
                  path: "$.sections[1].fields[0].transforms[0].maxLength", message: "must be at least 1, not 0"),
        Malformed(name: "empty date transform", json: spec(fields: #"{"key": "b", "transforms": [{"date": " "}]}"#),
                  path: "$.sections[1].fields[0].transforms[0].date", message: "a date format must not be empty"),
        Malformed(name: "negative maxLength rule", json: spec(fields: #"{"key": "b", "maxLength": -1}"#),
                  path: "$.sections[1].fields[0].maxLength", message: "must not be negative"),
        Malformed(name: "negative maxFutureDays", json: spec(fields: #"{"key": "b", "kind": "date", "maxFutureDays": -2}"#),
                  path: "$.sections[1].fields[0].maxFutureDays", message: "must not be negative"),
        Malformed(name: "nested repeat in a pattern", json: spec(fields: #"{"key": "b", "pattern": "(a+)+$"}"#),
                  path: "$.sections[1].fields[0].pattern",
                  message: "the pattern \"(a+)+$\" repeats a group that itself repeats, which can take exponential time to "
                      + "check; rewrite it without the nested repeat (for example \"a+\" instead of \"(a+)+\")"),
        Malformed(name: "condition nested too deep",
                  json: spec(fields: #"{"key": "b", "hiddenWhen": "# + String(repeating: #"{"not": "#, count: 40) + #""editing""#
                      + String(repeating: "}", count: 40) + "}"),
                  path: "$.sections[1].fields[0].hiddenWhen", message: "conditions may nest at most 32 deep; this one nests 41"),
        Malformed(name: "empty labelColumn", json: spec(fields: #"{"key": "b", "kind": "integer", "labelColumn": ""}"#),
                  path: "$.sections[1].fields[0].labelColumn", message: "\"labelColumn\" needs a column name"),
        Malformed(name: "choice without choices", json: spec(fields: #"{"key": "b", "kind": "choice"}"#),
                  path: "$.sections[1].fields[0].choices", message: "a choice field needs choices"),
    ]

    @Test(arguments: malformed)
    func malformedSpecIsRejectedWithItsPath(_ row: Malformed) {
        do {
            _ = try FormSpec.decode(Data(row.json.utf8))
            Issue.record("accepted: \(row.name)")
        } catch {
            #expect(error.path == row.path)
            #expect(error.message == row.message)
        }
    }

    @Test func everyKeyReadsBackAsWritten() throws {
        let json = """
        {"formstore": 1, "name": "all", "title": "All", "version": 3, "mode": "frozen", "table": "t",
         "editsOtherTable": true, "primaryKey": "id", "versionColumn": "rev", "validation": "change", "unsavedChangesWarning": false,
         "messages": {"required": "Fill in {label}"}, "kindMessages": {"email": {"email": "Bad address"}},
         "sections": [{"fields": [
           {"key": "a", "label": "A", "kind": "multiline", "placeholder": "p", "required": true,
            "readOnly": true, "enabledWhenNotEditing": true, "secure": true, "stored": false, "hint": "h",
            "suggestions": ["s"], "expanding": true, "minLength": 1, "maxLength": 9, "pattern": "[a-z]+",
            "patternName": "word", "email": true, "oneOfChoices": true, "choices": [{"value": 1, "label": "One", "disabled": true}],
            "transforms": ["trim", {"maxLength": 5}, {"date": "yyyy"}], "messages": {"minLength": "m"},
            "validation": "save", "hiddenWhen": {"field": "b", "equals": 2}, "disabledWhen": {"any": [{"field": "b", "notEquals": [1]}, {"not": "editing"}]}},
           {"key": "b", "kind": "integer", "min": -1.5, "max": 3, "equalTo": "a", "labelColumn": "name"},
           {"key": "c", "kind": "datetime", "format": "yyyy-MM-dd HH:mm", "default": "2000-01-02 03:04", "maxFutureDays": 2},
           {"key": "d", "kind": "multichoice", "allowDeselect": true, "style": "buttons", "choices": ["x", "y"], "default": ["y"]}
         ]}]}
        """
        let form = try FormSpec.decode(Data(json.utf8))
        #expect(form.version == 3 && form.mode == .frozen && form.primaryKey == ["id"] && form.unsavedChangesWarning == nil)
        #expect(form.editsOtherTable)
        #expect(form.messages.kinds[.email]?["email"] == "Bad address")
        let a = try #require(form.field("a"))
        #expect(a.rules == [.minLength(1), .maxLength(9), .pattern("[a-z]+", name: "word"), .email, .oneOfChoices])
        #expect(a.transforms == [.trim, .maxLength(5), .date(format: "yyyy")])
        #expect(a.disabledWhen == .any([.notEquals("b", .list([1])), .not(.editing)]))
        #expect(form.field("b")?.rules == [.range(min: -1.5, max: 3), .equalTo("a")])
        #expect(form.field("b")?.labelColumn == "name")
        #expect(form.field("c")?.defaultValue == .date(date("2000-01-02").addingTimeInterval(3 * 3600 + 4 * 60)))
        #expect(try FormSpec.decode(FormSpec.encode(form)) == form)
    }

    @Test func encodingIsPrettyWithSortedKeys() throws {
        let text = String(decoding: try FormSpec.encode(try Fixtures.form("login")), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"editsOtherTable\": true,\n  \"formstore\": 1,\n  \"name\": \"login\",\n  \"primaryKey\": [\"id\"],"))
    }
}

@Suite struct SpecDocumentationTests {
    @Test func exampleInTheSpecDocumentReads() throws {
        let doc = try String(contentsOf: Fixtures.root.deletingLastPathComponent().appendingPathComponent("docs/spec.md"),
                             encoding: .utf8)
        let start = try #require(doc.range(of: "```json\n{\n  \"formstore\"", options: .backwards))
        let body = doc[doc.index(start.lowerBound, offsetBy: 8)...]
        let end = try #require(body.range(of: "\n```"))
        let form = try FormSpec.decode(Data(body[..<end.lowerBound].utf8))
        #expect(Set(form.fields.map(\.kind)) == Set(FieldKind.allCases))
        #expect(form.field("alarm")?.format(form.field("alarm")!.defaultValue) == "07:30:00")
    }
}
