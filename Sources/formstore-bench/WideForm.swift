import CSQLite
import FormCore

/// The 200-field form of the wide cases: an integer key, every fourth field an
/// integer, the others text; `f1` carries three rules checked as typed, like
/// the 20-column form's first name.
enum WideForm {
    static let table = "bench_wide200"
    static let fieldCount = 200
    static func key(_ i: Int) -> String { "f\(i)" }
    static func isInteger(_ i: Int) -> Bool { i % 4 == 0 }

    static var form: Form {
        let id = Field(key: "id", label: "ID", kind: .integer).readOnly()
        var fields = (1..<fieldCount).map {
            Field(key: key($0), label: "Field \($0)", kind: isInteger($0) ? .integer : .text)
        }
        fields[0] = fields[0].required().minLength(2).maxLength(40).validation(.onChange)
        var form = Form(name: table, sections: [Section(nil, fields: [id] + fields)])
        form.primaryKey = ["id"]
        return form
    }

    /// One row read in C, each column by its type: what the floor under the
    /// session's save decodes (`InProcessCases.wideSaveFloor`).
    struct Row {
        var id: Int64
        /// By field number: each integer field's value, `nil` for a text field.
        var integers: [Int64?]
        /// By field number: each text field's value, `nil` for an integer field.
        var texts: [String?]

        init(_ statement: RawStatement) {
            id = sqlite3_column_int64(statement.pointer, 0)
            integers = (0..<fieldCount).map { $0 > 0 && isInteger($0) ? sqlite3_column_int64(statement.pointer, Int32($0)) : nil }
            texts = (0..<fieldCount).map { $0 > 0 && !isInteger($0) ? statement.text(Int32($0)) : nil }
        }
    }

    /// Creates the table with `count` rows, as an application would: plain SQL.
    static func create(in db: RawConnection, count: Int) throws {
        let columns = (1..<fieldCount).map { "\(key($0)) \(isInteger($0) ? "INTEGER" : "TEXT")" }
        let values = (1..<fieldCount).map { isInteger($0) ? "i * \($0)" : "'value \($0)'" }
        try db.execute("""
            DROP TABLE IF EXISTS \(table); CREATE TABLE \(table) (id INTEGER PRIMARY KEY, \(columns.joined(separator: ", ")));
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO \(table) SELECT i, \(values.joined(separator: ", ")) FROM n;
            COMMIT;
            """)
    }
}
