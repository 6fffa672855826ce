import Foundation
import Testing
@testable import FormCore

/// A spec is someone else's file: conditions, patterns and sizes must not let
/// it make a command crawl. The work done is counted, never timed.
@Suite struct BudgetTests {
    /// Field `f<i>` is hidden when `f<i-1>` is empty: a chain over `count` fields.
    static func chain(_ count: Int) -> Form {
        var fields = [Field("F0", key: "f0")]
        for i in 1..<count {
            fields.append(Field("F\(i)", key: "f\(i)").hidden(when: .isEmpty("f\(i - 1)")))
        }
        var form = Form(name: "chain", sections: [Section(fields: fields)])
        form.table = "chain"
        return form
    }

    @Test func aChainOfConditionsIsEvaluatedOncePerField() {
        let form = Self.chain(2_000)
        var values: [String: FieldValue] = ["f0": "x", "f1": "y"]
        var visibility = form.visibility(values: values)
        #expect(visibility.conditionEvaluations == 1_999)
        // f1 and f2 are shown; f2 is empty, so everything after it is hidden (hiding cascades).
        #expect(!visibility.isHidden("f1") && !visibility.isHidden("f2"))
        #expect(visibility.isHidden("f3") && visibility.isHidden("f1999"))
        #expect(visibility.hiddenKeys.count == 1_997)

        for i in 2..<2_000 { values["f\(i)"] = "v" }
        visibility = form.visibility(values: values)
        #expect(visibility.conditionEvaluations == 1_999)
        #expect(visibility.hiddenKeys.isEmpty)
        #expect(form.visibleValues(values).count == 2_000)
        values["f0"] = ""
        #expect(form.visibility(values: values).hiddenKeys.count == 1_999)
        #expect(form.isHidden(form.field("f1999")!, values: values))
    }

    @Test func aConditionThatReadsItselfSeesItselfShown() {
        let loop = Form(name: "loop", sections: [Section(fields: [
            Field("A", key: "a").hidden(when: .isEmpty("b")),
            Field("B", key: "b").hidden(when: .isNotEmpty("a")),
        ])])
        let visibility = loop.visibility(values: ["a": "1", "b": ""])
        #expect(visibility.conditionEvaluations == 2)
        #expect(visibility.isHidden("b"))
        #expect(visibility.isHidden("a")) // b is hidden, so a sees it empty
    }

    @Test func aSessionOnATwoThousandFieldChainSavesWhatWasTyped() throws {
        let form = Self.chain(2_000)
        let backend = MemoryBackend(keyColumns: ["id"])
        var stored: [String: FieldValue] = ["id": 1]
        for i in 0..<2_000 { stored["f\(i)"] = "v" }
        backend.put(stored)
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: backend)
        #expect(session.visibleFields.count == 2_000)
        #expect(session.visibility.conditionEvaluations == 1_999)
        try session.set("f1000", input: "")
        // Typing an empty f1000 hides f1001 and, through it, every later field.
        #expect(session.visibleFields.count == 1_001)
        guard case .saved(let changed, _) = try session.save() else {
            Issue.record("not saved")
            return
        }
        #expect(changed == ["f1000"])
    }

    @Test func aPatternThatWouldBacktrackIsDecidedWithoutBacktracking() {
        let text = String(repeating: "a", count: 40) + "b"
        // `(a|aa)+` backtracks exponentially in a backtracking engine yet nests
        // no repeat; the POSIX engine follows every path at once and answers.
        #expect(TextPattern.match("(a|aa)+$", text) == .notMatched)
        #expect(TextPattern.match("(a|aa)+b", text) == .matched)
        #expect(TextPattern.match("[a-z]+b", text) == .matched)
        #expect(TextPattern.match("a+", text) == .notMatched)

        let field = Field("Code", key: "code").pattern("(a|aa)+$")
        let form = Form(name: "f", sections: [Section(fields: [field])])
        let errors = form.validate(field: field, value: .text(text), values: [:])
        #expect(errors.count == 1)
        #expect(form.validate(field: field, value: "aaaa", values: [:]).isEmpty)
    }

    @Test(arguments: [
        ("(a+)+", true), ("(a*)*$", true), (#"^(?:\d+,?)+$"#, true), ("(x*y?){2,}", true), ("((ab)+c)*", true),
        ("(a(b+))+", true), ("^[0-9]{5}$", false), (TextPattern.email, false), ("(ab)+", false), ("a+b+", false),
        ("(a{2})+", false), ("[(a+)]+", false), (#"\(a+\)+"#, false), ("(a+){3}", false),
    ])
    func nestedRepeatsAreFound(_ pattern: String, _ nests: Bool) {
        #expect(TextPattern.nestsRepeats(pattern) == nests)
    }

    @Test func aFormOverTheFieldLimitIsRefused() {
        let fields = (0...Form.maximumFieldCount).map { Field("F\($0)", key: "f\($0)") }
        let form = Form(name: "big", sections: [Section(fields: fields)])
        #expect(form.definitionProblems.map(\.description)
                == ["$.sections: a form may have at most 10000 fields; this one has 10001"])
    }
}
