import FormCore

/// What the commands need from storage: the forms (from spec files and from
/// every table) and their records. FormStorage (the SQLite layer) and
/// FormCore's editing session will be adapted to it in one place,
/// `WorkspaceProvider.storage`; tests use a fake.
///
/// Errors: a missing form, record or draft is `CLIError.notFound`; invalid
/// input `CLIError.validation` (or `FieldError`); a changed record
/// `CLIError.conflict`; storage failures `CLIError.storage`.
protocol Workspace {
    /// Creates or upgrades FormStore's own tables; returns the migrations applied.
    func initialize() throws -> [String]
    /// Applies the user's numbered `.sql` files in `directory`; returns those applied.
    func migrate(directory: String) throws -> [String]

    /// Every form: from spec files, and one inferred for every table.
    func formSummaries() throws -> [FormSummary]
    func form(named name: String) throws -> Form

    /// The records, streamed in key order, filtered by field equality.
    func records(of form: Form, matching filters: [Assignment], limit: Int?) throws -> any RecordCursor
    func record(of form: Form, key: KeyArgument) throws -> StoredRecord
    /// Validates `inputs` (typed texts by field) through the form and inserts.
    func createRecord(of form: Form, inputs: [String: String]) throws -> StoredRecord
    /// Validates `inputs` and saves only what changed; returns the changes.
    func updateRecord(of form: Form, key: KeyArgument, inputs: [String: String]) throws -> [FieldChange]
    /// Runs an interactive edit through prompts or the editor document.
    func editRecord(of form: Form, key: KeyArgument, frontEnd: EditFrontEnd) throws -> ExitCode
    func deleteRecord(of form: Form, key: KeyArgument) throws
    /// Validates every row; writes all or nothing unless `dryRun`.
    func importRecords(of form: Form, from reader: any RecordReader, dryRun: Bool) throws -> ImportSummary

    func drafts(form: String?) throws -> [Draft]
    func draft(_ reference: DraftReference) throws -> Draft
    /// Saves a draft's values over its record (a three-way merge when the record changed).
    func restoreDraft(_ reference: DraftReference) throws -> StoredRecord
    func discardDraft(_ reference: DraftReference) throws

    /// Creates the demo database (schema, rows and specs) at `path`.
    func createDemo(at path: String) throws
}

/// Opens the workspace a command runs against.
struct WorkspaceProvider {
    var open: (_ globals: GlobalOptions, _ command: String) throws -> any Workspace

    /// The real storage. THE place to wire FormStorage in: open the database at
    /// `globals.databasePath` and the specs in `globals.formsDirectory`.
    static var storage: WorkspaceProvider {
        WorkspaceProvider { _, command in
            throw CLIError.notWired(command)
        }
    }
}

/// A form as `forms` lists it.
struct FormSummary: Sendable, Hashable {
    enum Source: String, Sendable { case spec, table }
    var name: String
    var title: String
    var source: Source
    var fieldCount: Int
}

/// Records handed out one at a time, so memory stays flat.
protocol RecordCursor {
    mutating func next() throws -> StoredRecord?
}

/// One field a save changed: its model value before and after.
struct FieldChange: Sendable, Hashable {
    var field: String
    var old: FieldValue
    var new: FieldValue
}

/// How `edit` talks to the person.
enum EditFrontEnd {
    case prompts(Prompter)
    case editor(EditorLauncher)
}

/// What an import did (or, with `--dry-run`, would do).
struct ImportSummary: Sendable, Hashable {
    var inserted: Int
    var updated: Int
    /// Rows that failed validation, by input line.
    var failures: [InputError]
}

/// A draft named by id, or by form and record key.
enum DraftReference: Sendable, Hashable {
    case id(String)
    case record(form: String, key: KeyArgument)
}
