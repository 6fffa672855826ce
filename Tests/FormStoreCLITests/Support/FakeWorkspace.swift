import FormCore
@testable import FormStoreCLI

/// An in-memory workspace: one form and its records, enough to drive the
/// read commands through the real parser, writers and runner.
final class FakeWorkspace: Workspace {
    let form: Form
    var rows: [StoredRecord]
    private(set) var deleted: [RecordKey] = []

    init(form: Form = peopleForm(), rows: [StoredRecord]) {
        self.form = form
        self.rows = rows
    }

    private func unsupported() -> CLIError { .failure("not in the fake") }

    func initialize() throws -> [String] { throw unsupported() }
    func migrate(directory: String) throws -> [String] { throw unsupported() }

    func formSummaries() throws -> [FormSummary] {
        [FormSummary(name: form.name, title: form.title, source: .spec, fieldCount: form.fields.count,
                     table: form.tableName, origin: "people.json")]
    }

    func form(named name: String) throws -> Form {
        guard name == form.name else { throw CLIError.notFound("no form named '\(name)'") }
        return form
    }

    /// Only `FIELD=VALUE` conditions (VALUE compared with the value's text) and `--limit`.
    func forEachRecord(of form: Form, selection: RecordSelection, _ body: (StoredRecord) throws -> Void) throws {
        let matching = try rows.filter { row in
            try selection.conditions.allSatisfy { condition in
                guard case .compare(.equal, let value) = condition.test else { throw unsupported() }
                return row.values[condition.field].map { ValueText.text($0, kind: nil, blobsBySize: false) } == value
            }
        }
        for row in matching.prefix(selection.limit ?? .max) { try body(row) }
    }

    /// The model values stand in for the stored ones.
    func forEachStoredRow(of form: Form, columns: [String], selection: RecordSelection,
                          _ body: ([FieldValue]) throws -> Void) throws {
        try forEachRecord(of: form, selection: selection) { record in
            try body(columns.map { record.values[$0] ?? .null })
        }
    }

    /// The fake has no foreign keys: no field offers rows.
    func choices(of form: Form, field: String, search: String?, limit: Int) throws -> [Choice] { [] }

    func record(of form: Form, key: KeyArgument) throws -> StoredRecord {
        let wanted = try key.recordKey(primaryKey: form.primaryKey, kinds: ["id": .integer])
        guard let row = rows.first(where: { $0.key == wanted }) else {
            throw CLIError.notFound("no \(form.name) record with key \(key.text)")
        }
        return row
    }

    func exportedGroupRows(of form: Form, key: RecordKey) throws -> [String: [[String: FieldValue]]] { throw unsupported() }
    func saveJSON(_ body: [UInt8], of form: Form, key: KeyArgument?) throws -> JSONSave { throw unsupported() }
    func createRecord(of form: Form, inputs: [String: FieldInput]) throws -> StoredRecord { throw unsupported() }
    func updateRecord(of form: Form, key: KeyArgument, inputs: [String: FieldInput]) throws -> RecordUpdate {
        throw unsupported()
    }
    func editRecord(of form: Form, key: KeyArgument, frontEnd: EditFrontEnd) throws -> ExitCode { throw unsupported() }

    func deleteRecord(of form: Form, key: KeyArgument) throws {
        let record = try record(of: form, key: key)
        rows.removeAll { $0.key == record.key }
        deleted.append(record.key)
    }

    func importRecords(of form: Form, from reader: any RecordReader, dryRun: Bool, children: Bool) throws -> ImportSummary {
        throw unsupported()
    }
    func drafts(form: String?) throws -> [Draft] { [] }
    func draft(_ reference: DraftReference) throws -> Draft { throw CLIError.notFound("no such draft") }
    func storedRecord(for draft: Draft) throws -> StoredRecord? { throw unsupported() }
    func restoreDraft(_ reference: DraftReference, choosing choice: ConflictChoice) throws -> StoredRecord {
        throw unsupported()
    }
    func discardDraft(_ reference: DraftReference) throws { throw unsupported() }
}

/// Two people.
func samplePeople() -> [StoredRecord] {
    [
        StoredRecord(key: RecordKey("id", 1), values: [
            "id": 1, "name": "Ann", "colour": "red", "password": "hunter2", "notes": "first line\nsecond",
        ]),
        StoredRecord(key: RecordKey("id", 2), values: [
            "id": 2, "name": "Bob, Jr.", "colour": .null, "password": .null, "notes": "",
        ]),
    ]
}
