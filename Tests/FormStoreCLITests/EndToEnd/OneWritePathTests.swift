import FormStoreTestSupport
import Foundation
import FormCore
import FormStorage
import Testing

/// One record pipeline (issue 14): the same inputs through the session API,
/// `set` or `new`, `import` (NDJSON and CSV) and the JSON door (`set --json`,
/// `new --json`) leave the same rows and give the same messages, on a table
/// built by the `sqlite3` shell the way an application builds its own.
@Suite struct OneWritePathTests {
    static let schema = """
    CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, priority INTEGER, status TEXT DEFAULT 'open',
                        closed_note TEXT, locked INTEGER DEFAULT 0, budget INTEGER, created TEXT,
                        email TEXT, email2 TEXT);
    INSERT INTO tasks VALUES (1, 'Existing', 2, 'open', NULL, 1, 100, '2026-01-01', 'a@example.com', 'a@example.com');

    """

    /// The form's fields and rule; `mode` is `save` or `frozen`.
    static func spec(name: String, mode: String) -> String {
        """
        {"formstore": 1, "name": "\(name)", "table": "tasks", "editsOtherTable": \(name != "tasks"), "mode": "\(mode)",
         "primaryKey": ["id"],
         "rules": [{"type": "equal", "field": "email2", "other": "email", "message": "the e-mails differ"}],
         "sections": [{"fields": [
           {"key": "id", "label": "ID", "kind": "integer", "readOnly": true},
           {"key": "title", "label": "Title", "kind": "text", "required": true},
           {"key": "priority", "label": "Priority", "kind": "integer", "min": 1, "max": 5},
           {"key": "status", "label": "Status", "kind": "choice", "choices": ["open", "closed"], "default": "open"},
           {"key": "closed_note", "label": "Closing note", "kind": "text",
            "hiddenWhen": {"field": "status", "notEquals": "closed"}},
           {"key": "locked", "label": "Locked", "kind": "bool"},
           {"key": "budget", "label": "Budget", "kind": "integer", "disabledWhen": {"field": "locked", "equals": true}},
           {"key": "created", "label": "Created", "kind": "text", "readOnly": true},
           {"key": "email", "label": "E-mail", "kind": "email"},
           {"key": "email2", "label": "E-mail again", "kind": "email"}]}]}
        """
    }

    /// One write: a new record (`key` nil) or record 1, the inputs as typed, in form order.
    struct Case: CustomStringConvertible {
        var name: String
        var form = "tasks"
        var key: Int?
        var inputs: [(String, String)]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a valid new row", inputs: [("title", "Valid"), ("priority", "3"), ("email", "b@example.com"),
                                               ("email2", "b@example.com")]),
        Case(name: "a valid change", key: 1, inputs: [("title", "Renamed"), ("priority", "4")]),
        Case(name: "text that is no number", inputs: [("title", "T"), ("priority", "abc")]),
        Case(name: "a number out of range", key: 1, inputs: [("priority", "9")]),
        Case(name: "a required field left empty", inputs: [("priority", "1")]),
        Case(name: "a malformed e-mail", key: 1, inputs: [("email", "not-an-email"), ("email2", "not-an-email")]),
        Case(name: "a hidden field", inputs: [("title", "T"), ("closed_note", "done")]),
        Case(name: "a hidden field of a stored record", key: 1, inputs: [("closed_note", "done")]),
        Case(name: "a disabled field", key: 1, inputs: [("budget", "5")]),
        Case(name: "a read-only field on insert", inputs: [("title", "T"), ("created", "2026-02-02")]),
        Case(name: "a read-only field on update", key: 1, inputs: [("created", "2026-02-02")]),
        Case(name: "a frozen form, new", form: "tasks-frozen", inputs: [("title", "T")]),
        Case(name: "a frozen form, update", form: "tasks-frozen", key: 1, inputs: [("title", "T")]),
        Case(name: "a cross-field rule", inputs: [("title", "T"), ("email", "b@example.com"), ("email2", "c@example.com")]),
    ]

    /// A fresh database holding the schema and both specs.
    static func database() throws -> DemoDatabase {
        let demo = try DemoDatabase(sql: schema)
        demo.formsDirectory = demo.scratch.path + "/forms"
        try demo.file("forms/tasks.json", spec(name: "tasks", mode: "save"))
        try demo.file("forms/tasks-frozen.json", spec(name: "tasks-frozen", mode: "frozen"))
        return demo
    }

    /// What one path left: the table's rows (each value with its storage class) and the messages it gave.
    struct Result {
        var rows: String
        var messages: String
    }

    static func rows(_ demo: DemoDatabase) throws -> String {
        try demo.query("SELECT quote(id), quote(title), quote(priority), quote(status), quote(closed_note), quote(locked), "
                       + "quote(budget), quote(created), quote(email), quote(email2) FROM tasks ORDER BY id")
    }

    /// The session API: each input set as typed, then saved; the refusal or the errors are the messages.
    static func throughTheSession(_ test: Case) throws -> (rows: String, messages: [String]) {
        let demo = try database()
        let store = try FormStore(path: demo.path, sidecarDirectory: URL(fileURLWithPath: demo.stateDirectory))
        let form = try FormSpec.decode(Data(contentsOf: URL(fileURLWithPath: demo.formsDirectory + "/\(test.form).json")))
        let session = try test.key.map { try FormSession.open(form, key: RecordKey("id", .int(Int64($0))), backend: store) }
            ?? FormSession.new(form, backend: store)
        var messages: [String] = []
        do {
            for (key, input) in test.inputs { try session.set(key, input: input) }
            if case .invalid(let errors) = try session.save() { messages = errors.map(\.message) }
        } catch let error as SessionError {
            messages = [error.message]
        }
        return (try rows(demo), messages)
    }

    /// `set` or `new` with `key=value` arguments.
    static func throughTheCommand(_ test: Case) throws -> Result {
        let demo = try database()
        let pairs = test.inputs.map { "\($0.0)=\($0.1)" }
        let run = try demo.run(test.key.map { ["set", test.form, String($0)] + pairs } ?? (["new", test.form] + pairs))
        return Result(rows: try rows(demo), messages: run.errors)
    }

    /// `set --json` or `new --json`: the JSON door.
    static func throughTheJSONDoor(_ test: Case) throws -> Result {
        let demo = try database()
        let body = "{" + test.inputs.map { "\(json($0.0)): \(json($0.1))" }.joined(separator: ", ") + "}"
        let run = try demo.run((test.key.map { ["set", test.form, String($0)] } ?? ["new", test.form]) + ["--json"],
                               stdin: body)
        return Result(rows: try rows(demo), messages: run.errors)
    }

    /// `import` of one NDJSON line or one CSV row (with the key column for an update).
    static func throughImport(_ test: Case, format: String) throws -> Result {
        let demo = try database()
        let members = (test.key.map { [("id", String($0))] } ?? []) + test.inputs
        let text = format == "csv"
            ? members.map(\.0).joined(separator: ",") + "\r\n" + members.map { csvCell($0.1) }.joined(separator: ",") + "\r\n"
            : "{" + members.map { "\(json($0.0)): \(json($0.1))" }.joined(separator: ", ") + "}\n"
        let file = try demo.file("row.\(format)", text)
        let run = try demo.run(["import", test.form, file, "--format", format])
        return Result(rows: try rows(demo), messages: run.output + run.errors)
    }

    static func json(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// Quoted, so every cell arrives as text, as a person typed it.
    static func csvCell(_ text: String) -> String {
        "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    @Test(arguments: cases)
    func everyWritePathLeavesTheSameRowsAndGivesTheSameMessages(_ test: Case) throws {
        let reference = try Self.throughTheSession(test)
        let paths: [(String, Result)] = [
            (test.key == nil ? "new" : "set", try Self.throughTheCommand(test)),
            ("the JSON door", try Self.throughTheJSONDoor(test)),
            ("import NDJSON", try Self.throughImport(test, format: "ndjson")),
            ("import CSV", try Self.throughImport(test, format: "csv")),
        ]
        let untouched = try Self.rows(try Self.database())
        let succeeds = test.name.hasPrefix("a valid")
        #expect(reference.messages.isEmpty == succeeds, "the session: \(String(describing: reference.messages))")
        #expect((reference.rows != untouched) == succeeds, "the session wrote \(String(describing: reference.rows))")
        for (path, result) in paths {
            #expect(result.rows == reference.rows, "\(path) left other rows than the session")
            for message in reference.messages {
                #expect(result.messages.contains(message), "\(path) does not say \"\(message)\": \(result.messages)")
            }
        }
    }
}
