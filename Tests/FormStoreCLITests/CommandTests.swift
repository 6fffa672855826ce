import FormStoreTestSupport
import Foundation
import Testing
import FormCore
@testable import FormStoreCLI

/// Commands run through the real parser, runner and writers against an
/// in-memory workspace.
@Suite struct CommandTests {
    @Test func listWritesEveryFormat() {
        let workspace = FakeWorkspace(rows: samplePeople())
        let table = runTool(["list", "people"], workspace: workspace)
        #expect(table.code == .success)
        #expect(table.output == """
        id  name      colour  born  notes               password
         1  Ann       Red           first line\\nsecond  ••••
         2  Bob, Jr.                ""

        """)
        let csv = runTool(["list", "people", "--format", "csv", "--limit", "1"], workspace: workspace)
        #expect(csv.output == "id,name,colour,born,notes,password\r\n1,Ann,red,,\"first line\nsecond\",••••\r\n")
        let ndjson = runTool(["list", "people", "--format=ndjson", "--where", "name=Bob, Jr."], workspace: workspace)
        #expect(ndjson.output == "{\"id\": 2, \"name\": \"Bob, Jr.\", \"colour\": null, \"born\": null, \"notes\": \"\", \"password\": null}\n")
    }

    @Test func secureValuesAreShownOnlyWhenAsked() {
        let workspace = FakeWorkspace(rows: samplePeople())
        let listed = runTool(["list", "people", "--format", "ndjson"], workspace: workspace)
        #expect(listed.output.contains("\"password\": \"••••\""))
        // An export is read back by import: secure fields are left out rather than masked.
        let exported = runTool(["export", "people"], workspace: workspace)
        #expect(exported.code == .success)
        #expect(!exported.output.contains("password"))
        #expect(!exported.output.contains("hunter2"))
        let shown = runTool(["export", "people", "--show-secure", "--format", "json"], workspace: workspace)
        #expect(shown.output.contains("\"password\": \"hunter2\""))
    }

    @Test func showPrintsOneRecord() {
        let workspace = FakeWorkspace(rows: samplePeople())
        let text = runTool(["show", "people", "1"], workspace: workspace)
        #expect(text.output.hasPrefix("ID:               1\nName:             Ann\nFavourite colour: Red\n"))
        let json = runTool(["show", "people", "2", "--format", "json"], workspace: workspace)
        #expect(json.output.hasPrefix("{\n  \"id\": 2,\n  \"name\": \"Bob, Jr.\",\n"))
    }

    @Test func missingFormsAndRecordsExit66() {
        let workspace = FakeWorkspace(rows: samplePeople())
        let form = runTool(["list", "pets"], workspace: workspace)
        #expect(form.code == .notFound)
        #expect(form.errors == "formstore: no form named 'pets'\n")
        let record = runTool(["show", "people", "9"], workspace: workspace)
        #expect(record.code.rawValue == 66)
        #expect(record.output.isEmpty)
    }

    @Test func deleteNeedsYesWhenStdinIsNotATerminal() {
        let workspace = FakeWorkspace(rows: samplePeople())
        let refused = runTool(["delete", "people", "1"], workspace: workspace)
        #expect(refused.code == .usage)
        #expect(workspace.deleted.isEmpty)
        let done = runTool(["delete", "people", "1", "--yes"], workspace: workspace)
        #expect(done.code == .success)
        #expect(done.errors == "Deleted people 1.\n")
        #expect(workspace.deleted == [RecordKey("id", 1)])
    }

    @Test func formsAndFormDescribeTheForms() throws {
        let workspace = FakeWorkspace(rows: [])
        let forms = runTool(["forms", "--format", "json"], workspace: workspace)
        #expect(forms.output == "[\n  {\"name\": \"people\", \"title\": \"People\", \"source\": \"spec\", \"fields\": 6, \"table\": \"people\", \"origin\": \"people.json\"}\n]\n")
        let schema = runTool(["form", "people", "--format", "json-schema"], workspace: workspace)
        let parsed = try JSONSerialization.jsonObject(with: Data(schema.output.utf8)) as? [String: Any]
        #expect(parsed?["required"] as? [String] == ["name"])
        let json = runTool(["form", "people", "--format", "json"], workspace: workspace)
        #expect((try? JSONSerialization.jsonObject(with: Data(json.output.utf8))) != nil)
        #expect(runTool(["form", "people"], workspace: workspace).output.contains("  name: Name (text, required, at most 40 characters)\n"))
    }

    @Test func aMissingDatabaseIsNotFoundAndNotCreated() throws {
        let scratch = try TemporaryDirectory()
        let run = runTool(["list", "people"], workingDirectory: scratch.path)
        #expect(run.code == .notFound)
        #expect(run.errors == "formstore: no database at \(scratch.path)/formstore.sqlite (create one with 'formstore init')\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/formstore.sqlite"))
    }

    @Test func errorsMapToTheirExitCodes() {
        #expect(CLIError.usage("x").exitCode.rawValue == 64)
        #expect(CLIError.validation("x").exitCode.rawValue == 65)
        #expect(CLIError.notFound("x").exitCode.rawValue == 66)
        #expect(CLIError.storage("x").exitCode.rawValue == 74)
        #expect(CLIError.conflict("x").exitCode.rawValue == 75)
        #expect(CLIError.failure("x").exitCode.rawValue == 1)
        #expect(CLIError.classifying(FieldError(field: "age", code: "range", message: "too old")) == .validation("age: too old"))
        #expect(CLIError.classifying(InputError(line: 4, message: "bad")).exitCode == .validationFailed)
    }

    @Test func detailsArePrintedUnderTheMessage() {
        let run = runTool(["list", "people"], workspace: FakeWorkspaceThrowing())
        #expect(run.code == .validationFailed)
        #expect(run.errors == "formstore: 2 row(s) failed\n  line 2: age: too old\n  line 5: name: required\n")
    }

    @Test func globalOptionsResolveFromFlagsEnvironmentAndFolders() throws {
        let scratch = try TemporaryDirectory()
        var none = try GlobalOptions(ParsedArguments(), environment: [:], workingDirectory: scratch.path)
        #expect(none == GlobalOptions(databasePath: scratch.path + "/formstore.sqlite", formsDirectory: nil))
        try FileManager.default.createDirectory(atPath: scratch.path + "/forms", withIntermediateDirectories: false)
        none = try GlobalOptions(ParsedArguments(), environment: ["FORMSTORE_DB": "/data/x.sqlite"], workingDirectory: scratch.path)
        #expect(none == GlobalOptions(databasePath: "/data/x.sqlite", formsDirectory: scratch.path + "/forms"))
        let given = try GlobalOptions(ParsedArguments(values: ["db": ["y.sqlite"], "forms": ["specs"]]),
                                  environment: ["FORMSTORE_DB": "/data/x.sqlite"], workingDirectory: scratch.path)
        var expected = GlobalOptions(databasePath: "y.sqlite", formsDirectory: "specs")
        expected.databaseGivenAsArgument = true
        #expect(given == expected)
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() {
        #expect(Terminal.colorAllowed(outputIsTerminal: true, environment: [:]))
        #expect(!Terminal.colorAllowed(outputIsTerminal: false, environment: [:]))
        #expect(!Terminal.colorAllowed(outputIsTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(Terminal.colorAllowed(outputIsTerminal: true, environment: ["NO_COLOR": ""]))
        #expect(!Terminal.colorAllowed(outputIsTerminal: true, environment: ["TERM": "dumb"]))
    }
}

/// Fails every form lookup with a multi-line validation error.
final class FakeWorkspaceThrowing: Workspace {
    private let base = FakeWorkspace(rows: [])
    func initialize() throws -> [String] { [] }
    func migrate(directory: String) throws -> [String] { [] }
    func formSummaries() throws -> [FormSummary] { [] }
    func form(named name: String) throws -> Form {
        throw CLIError.validation("2 row(s) failed", details: ["line 2: age: too old", "line 5: name: required"])
    }
    func forEachRecord(of form: Form, selection: RecordSelection, _ body: (StoredRecord) throws -> Void) throws {
        try base.forEachRecord(of: form, selection: selection, body)
    }
    func forEachStoredRow(of form: Form, columns: [String], selection: RecordSelection,
                          _ body: ([FieldValue]) throws -> Void) throws {
        try base.forEachStoredRow(of: form, columns: columns, selection: selection, body)
    }
    func record(of form: Form, key: KeyArgument) throws -> StoredRecord { try base.record(of: form, key: key) }
    func choices(of form: Form, field: String, search: String?, limit: Int) throws -> [Choice] { [] }
    func exportedGroupRows(of form: Form, key: RecordKey) throws -> [String: [[String: FieldValue]]] { try base.exportedGroupRows(of: form, key: key) }
    func saveJSON(_ body: [UInt8], of form: Form, key: KeyArgument?) throws -> JSONSave { try base.saveJSON(body, of: form, key: key) }
    func createRecord(of form: Form, inputs: [String: FieldInput]) throws -> StoredRecord { try base.createRecord(of: form, inputs: inputs) }
    func updateRecord(of form: Form, key: KeyArgument, inputs: [String: FieldInput]) throws -> RecordUpdate { RecordUpdate(changes: []) }
    func editRecord(of form: Form, key: KeyArgument, frontEnd: EditFrontEnd) throws -> ExitCode { .success }
    func deleteRecord(of form: Form, key: KeyArgument) throws {}
    func importRecords(of form: Form, from reader: any RecordReader, dryRun: Bool, children: Bool) throws -> ImportSummary {
        ImportSummary(inserted: 0, updated: 0, failures: [])
    }
    func drafts(form: String?) throws -> [Draft] { [] }
    func draft(_ reference: DraftReference) throws -> Draft { try base.draft(reference) }
    func storedRecord(for draft: Draft) throws -> StoredRecord? { try base.storedRecord(for: draft) }
    func restoreDraft(_ reference: DraftReference, choosing choice: ConflictChoice) throws -> StoredRecord {
        try base.restoreDraft(reference, choosing: choice)
    }
    func discardDraft(_ reference: DraftReference) throws {}
}
