import CSQLite
import FormCore
import FormStorage
import Foundation

/// The 20-column record of the load, save and keystroke cases.
struct Person: Codable, Equatable {
    var id: Int64
    var firstName: String
    var lastName: String
    var email: String
    var phone: String
    var street: String
    var city: String
    var state: String
    var zip: String
    var country: String
    var age: Int64
    var score: Double
    var balance: Double
    var visits: Int64
    var rating: Double
    var active: Bool
    var notes: String
    var company: String
    var title: String
    var nickname: String

    /// Column name and SQL type, in the struct's order.
    static let columns: [(name: String, type: String)] = [
        ("id", "INTEGER PRIMARY KEY"), ("firstName", "TEXT"), ("lastName", "TEXT"), ("email", "TEXT"),
        ("phone", "TEXT"), ("street", "TEXT"), ("city", "TEXT"), ("state", "TEXT"), ("zip", "TEXT"),
        ("country", "TEXT"), ("age", "INTEGER"), ("score", "REAL"), ("balance", "REAL"), ("visits", "INTEGER"),
        ("rating", "REAL"), ("active", "INTEGER"), ("notes", "TEXT"), ("company", "TEXT"), ("title", "TEXT"),
        ("nickname", "TEXT"),
    ]

    static let table = "bench_people"
    static var selectSQL: String {
        "SELECT \(columns.map(\.name).joined(separator: ", ")) FROM \(table) WHERE id = ?"
    }

    /// The baseline's read: 20 columns of the current row straight into the struct.
    init(row s: RawStatement) {
        let p = s.pointer
        id = sqlite3_column_int64(p, 0)
        firstName = s.text(1); lastName = s.text(2); email = s.text(3); phone = s.text(4)
        street = s.text(5); city = s.text(6); state = s.text(7); zip = s.text(8); country = s.text(9)
        age = sqlite3_column_int64(p, 10); score = sqlite3_column_double(p, 11)
        balance = sqlite3_column_double(p, 12); visits = sqlite3_column_int64(p, 13)
        rating = sqlite3_column_double(p, 14); active = sqlite3_column_int64(p, 15) != 0
        notes = s.text(16); company = s.text(17); title = s.text(18); nickname = s.text(19)
    }

    /// The form over the table: kinds as FormStore infers them from the struct;
    /// `firstName` carries the keystroke case's three rules, checked as typed.
    static var form: Form {
        let kinds: [String: FieldKind] = ["id": .integer, "age": .integer, "visits": .integer, "score": .decimal,
                                          "balance": .decimal, "rating": .decimal, "active": .bool]
        var fields = columns.map { Field(key: $0.name, label: $0.name, kind: kinds[$0.name] ?? .text) }
        fields[0].isReadOnly = true
        fields[1] = fields[1].required().minLength(2).maxLength(40).validation(.onChange)
        var form = Form(name: table, sections: [Section(nil, fields: fields)])
        form.primaryKey = ["id"]
        return form
    }

    /// Creates the table with `count` rows.
    static func create(in db: RawConnection, count: Int) throws {
        let definition = columns.map { "\($0.name) \($0.type)" }.joined(separator: ", ")
        try db.execute("DROP TABLE IF EXISTS \(table); CREATE TABLE \(table) (\(definition))")
        try db.execute("""
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO \(table) SELECT i, 'Ada' || i, 'Lovelace', 'ada' || i || '@example.com', '5551234567',
                '12 Analytical Street', 'London', 'LN', '12345', 'United Kingdom', 36, 9.5, 1024.25, i,
                4.5, 1, 'Wrote the first program.', 'Babbage & Co', 'Programmer', 'Countess' FROM n;
            COMMIT;
            """)
    }
}

/// The 50-field form of the typing case: all text, no rules beyond the kind's.
enum WideRecord {
    static let table = "bench_wide"
    static let fieldCount = 50
    static func key(_ i: Int) -> String { "f\(i)" }

    static var form: Form {
        let id = Field(key: "id", label: "ID", kind: .integer).readOnly()
        let fields = (1..<fieldCount).map { Field(key: key($0), label: "Field \($0)", kind: .text) }
        var form = Form(name: table, sections: [Section(nil, fields: [id] + fields)])
        form.primaryKey = ["id"]
        return form
    }

    static func create(in db: RawConnection, count: Int) throws {
        let columns = (1..<fieldCount).map { "\(key($0)) TEXT" }.joined(separator: ", ")
        let values = (1..<fieldCount).map { "'value \($0)'" }.joined(separator: ", ")
        try db.execute("""
            DROP TABLE IF EXISTS \(table); CREATE TABLE \(table) (id INTEGER PRIMARY KEY, \(columns));
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO \(table) SELECT i, \(values) FROM n;
            COMMIT;
            """)
    }
}

/// A private temporary directory, removed when the run ends.
final class Scratch {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/formstore-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot create a temporary directory") }
        path = String(cString: made)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A FormStore over `path` at the given synchronous level (FormStore's defaults
/// otherwise). The bench made the file with the C API, so it hands it over as
/// `formstore init` would: drafts go to FormStore's tables in the file.
func openStore(_ path: String, synchronous: Configuration.Synchronous = .full) throws -> FormStore {
    var configuration = Configuration()
    configuration.synchronous = synchronous
    let store = try FormStore(path: path, configuration: configuration)
    try store.initialize()
    return store
}
