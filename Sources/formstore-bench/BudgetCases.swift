import FormCore
import FormStorage
import Foundation

/// What a spec from someone else can cost (issue 20): a 2,000-field form whose
/// fields hide one another in a chain, and a pattern that backtracks
/// exponentially. Both must stay bounded; neither has a baseline.
struct BudgetCases {
    let directory: Scratch
    let size: RunSize
    static let table = "chained"
    static let fieldCount = 2_000

    /// `id` and `f1`…`f1999`, each `f<i>` hidden while `f<i-1>` is empty.
    static var form: Form {
        let id = Field(key: "id", label: "ID", kind: .integer).readOnly()
        var fields = [Field(key: "f1", label: "Field 1")]
        for i in 2..<fieldCount {
            fields.append(Field(key: "f\(i)", label: "Field \(i)").hidden(when: .isEmpty("f\(i - 1)")))
        }
        var form = Form(name: table, sections: [Section(nil, fields: [id] + fields)])
        form.primaryKey = ["id"]
        return form
    }

    /// Opens record 1 of the chained table, sets its first field (which shows
    /// or hides all 1,998 after it) and saves: the `set` + save of the CLI.
    func conditionalForm() throws -> ResultRow {
        let path = directory.file("chained.sqlite")
        let columns = (1..<Self.fieldCount).map { "f\($0) TEXT" }.joined(separator: ", ")
        let values = (1..<Self.fieldCount).map { "'v\($0)'" }.joined(separator: ", ")
        try RawConnection(path: path).execute("""
            CREATE TABLE \(Self.table) (id INTEGER PRIMARY KEY, \(columns));
            INSERT INTO \(Self.table) VALUES (1, \(values));
            """)
        let store = try openStore(path)
        let form = Self.form
        var samples: [Double] = []
        for round in 0..<size.pick(smoke: 1, quick: 5, full: 11) {
            samples.append(try seconds {
                let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
                try session.set("f1", input: round % 2 == 0 ? "" : "v1")
                guard case .saved = try session.save() else { throw BenchError("the chained form did not save") }
            })
        }
        let ms = median(samples) * 1e3
        return ResultRow("2,000-field conditional form (open + set + save)", formstore: ms, baseline: nil, unit: "ms",
                         goal: "≤ 500 ms", met: ms <= 500)
    }

    /// Checks a value against `(a|aa)+$` (40 a's and a b: about 10^8 steps
    /// unbounded). The pattern engine's budget stops it and fails the value.
    func pathologicalPattern() throws -> ResultRow {
        let field = Field(key: "code", label: "Code").pattern("(a|aa)+$")
        let form = Form(name: "codes", sections: [Section(nil, fields: [field])])
        let value = FieldValue.text(String(repeating: "a", count: 40) + "b")
        var samples: [Double] = []
        for _ in 0..<size.pick(smoke: 1, quick: 5, full: 11) {
            samples.append(try seconds {
                let errors = form.validate(field: field, value: value, values: [:])
                guard errors.count == 1 else { throw BenchError("the pathological value was not refused") }
            })
        }
        let ms = median(samples) * 1e3
        return ResultRow("pathological pattern (a|aa)+$, one value", formstore: ms, baseline: nil, unit: "ms",
                         goal: "≤ 100 ms", met: ms <= 100)
    }
}
