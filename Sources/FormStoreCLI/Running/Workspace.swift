import FormCore
import FormStorage
import FoundationEssentials

/// What the commands need from storage: the forms (from spec files and from
/// every table) and their records. `StorageWorkspace` adapts FormStorage (the
/// SQLite layer) and FormCore's editing session to it; tests use a fake.
///
/// Errors may be thrown as they come (`DatabaseError`, `SessionError`,
/// `FormStoreError`, `RecordRejected` ...): `CLIError.classifying` gives each its
/// message and exit code in one place.
protocol Workspace {
    /// Creates or upgrades FormStore's own tables; returns the migrations applied.
    func initialize() throws -> [String]
    /// Applies the user's numbered `.sql` files in `directory`; returns those applied.
    func migrate(directory: String) throws -> [String]

    /// Every form: from spec files, and one inferred for every table.
    func formSummaries() throws -> [FormSummary]
    func form(named name: String) throws -> Form
    /// The form with its child groups (`--children`): a spec's groups, or for
    /// an inferred form every table whose foreign key refers to it; without
    /// `children`, the form without groups.
    func form(named name: String, children: Bool) throws -> Form
    /// `form(named:children:)` for an import, whose first records tell an
    /// inferred form's date fields over empty columns what the import
    /// brings: `firstRecords` reads them (only if needed) from the input
    /// opened for the form, laid out by `names`.
    func form(importing name: String, children: Bool, firstRecords: FirstRecords) throws -> Form
    /// The `CREATE` statement of the table (or view) `form` was inferred
    /// from, as the database keeps it: what `form --format sql` prints for
    /// such a form, where the form's own idea of the table would lose what
    /// no field says (foreign keys, generated columns, `STRICT`, the hidden
    /// rowid). `nil` for a spec's form, or where no such text is kept.
    func storedSchema(of form: Form) throws -> String?
    /// The fields of `form` whose column was declared with no type, which
    /// may hold any value (`form --format json-schema` says so); none
    /// where there is no database yet.
    func untypedFields(of form: Form) throws -> Set<String>
    /// How many columns of `form`'s table are named `''`, which no field can
    /// name (`RecordStore.unnamedColumnCount(of:)`): an export leaves them out.
    func unnamedColumnCount(of form: Form) throws -> Int
    /// What the database itself holds `form`'s table to, beyond types and
    /// keys: each column's DEFAULT as written, and the CHECK constraints
    /// (`formstore form` lists them). Empty where there is no such table.
    func schemaConstraints(of form: Form) throws -> SchemaConstraints

    /// Calls `body` with each record `selection` chooses, in its order (else
    /// key order); each condition's VALUE is parsed through its field.
    /// Streamed: one record at a time, inside one read transaction, so memory stays flat.
    func forEachRecord(of form: Form, selection: RecordSelection, _ body: (StoredRecord) throws -> Void) throws
    /// Like `forEachRecord`, but gives `columns`' values exactly as stored,
    /// kind-less (INTEGER `.int`, REAL `.double`, TEXT `.text`, BLOB `.data`,
    /// NULL `.null`), in the order of `columns`: what `export` writes.
    func forEachStoredRow(of form: Form, columns: [String], selection: RecordSelection,
                          _ body: ([FieldValue]) throws -> Void) throws
    /// Writes `columns` of each record `selection` chooses, exactly as stored,
    /// through `encoder` (`export`). By default from `forEachStoredRow`; SQLite
    /// reads each row's cells in place instead.
    func exportStoredRows(of form: Form, columns: [String], selection: RecordSelection,
                          into encoder: inout ExportEncoder) throws
    func record(of form: Form, key: KeyArgument) throws -> StoredRecord
    /// The rows of each group of the record with `key`, each column as stored (`export --children`).
    func exportedGroupRows(of form: Form, key: RecordKey) throws -> [String: [[String: FieldValue]]]
    /// Saves one JSON object of field values and child arrays (`--json --children`) as a new
    /// record (`key` nil) or over the record with `key`: the parent and every row in one transaction.
    func saveJSON(_ body: [UInt8], of form: Form, key: KeyArgument?) throws -> JSONSave
    /// What a foreign-key field offers (`group.field` for a row field): the
    /// referenced rows whose label holds `search`, at most `limit`.
    func choices(of form: Form, field: String, search: String?, limit: Int) throws -> [Choice]
    /// The labels of the form's foreign-key fields' rows, for `show` and `list`.
    func referenceLabels(of form: Form) throws -> ReferenceLabels?
    /// The labels of each group's row fields that are foreign keys, by group key (`show --children`).
    func rowReferenceLabels(of form: Form) throws -> [String: ReferenceLabels]
    /// Validates `inputs` (typed texts by field) through the form and inserts.
    func createRecord(of form: Form, inputs: [String: FieldInput]) throws -> StoredRecord
    /// Validates `inputs` and saves only what changed; returns the changes, and
    /// the rules the fields left unchanged already break (warnings, not errors).
    func updateRecord(of form: Form, key: KeyArgument, inputs: [String: FieldInput]) throws -> RecordUpdate
    /// Runs an interactive edit through prompts or the editor document.
    func editRecord(of form: Form, key: KeyArgument, frontEnd: EditFrontEnd) throws -> ExitCode
    func deleteRecord(of form: Form, key: KeyArgument) throws
    /// What deleting the record does to the rows that refer to it by an `ON
    /// DELETE` rule (`RecordStore.deleteEffects(of:key:)`): said before it goes.
    func deleteEffects(of form: Form, key: KeyArgument) throws -> [DeleteEffect]
    /// Validates every row; writes all or nothing unless `dryRun`.
    /// `children`: `--children` was given (the form holds the groups it found).
    func importRecords(of form: Form, from reader: any RecordReader, dryRun: Bool, children: Bool) throws -> ImportSummary

    func drafts(form: String?) throws -> [Draft]
    func draft(_ reference: DraftReference) throws -> Draft
    /// The draft's record as stored now (`nil` for a new record's draft, or a record since deleted).
    func storedRecord(for draft: Draft) throws -> StoredRecord?
    /// Saves a draft's values over its record (a three-way merge when the
    /// record changed), settling conflicts as `choice` says.
    func restoreDraft(_ reference: DraftReference, choosing choice: ConflictChoice) throws -> StoredRecord
    func discardDraft(_ reference: DraftReference) throws

}

/// How an import's first records are read for `Workspace.form(importing:children:firstRecords:)`:
/// from the input opened for the form, laid out by the names given.
typealias FirstRecords = (_ form: Form, _ names: [String]) -> [InputRecord]

/// Opens the workspace a command runs against.
struct WorkspaceProvider {
    var open: (_ globals: GlobalOptions, _ access: DatabaseAccess, _ warnings: any TextSink) throws -> any Workspace

    /// The real storage: the database at `globals.databasePath` and the specs
    /// in `globals.formsDirectory`, opened lazily and only as far as `access`
    /// allows (the command's own, `CommandConfiguration.access`); warnings (a
    /// broken spec of another form) to `warnings`.
    static var storage: WorkspaceProvider {
        WorkspaceProvider { globals, access, warnings in
            StorageWorkspace(globals: globals, access: access, warnings: warnings)
        }
    }

    /// `storage` for the process's own run, which exits when the command
    /// returns: a workspace that only reads is kept until then instead of
    /// being taken apart first. Taking a store apart made the runtime build
    /// the metadata of every type it held, about 0.4 M instructions of
    /// `show` (docs/binary.md); a read-only connection leaves nothing on
    /// disk to close. A workspace that may write is closed as usual (its
    /// connection's close checkpoints the WAL).
    static var storageUntilExit: WorkspaceProvider {
        WorkspaceProvider { globals, access, warnings in
            let workspace = StorageWorkspace(globals: globals, access: access, warnings: warnings)
            if access.isReadOnly { keptUntilExit.append(workspace) }
            return workspace
        }
    }

    /// Only the process's one run (`CommandLineTool.run(_:)`, on its main thread) appends.
    nonisolated(unsafe) private static var keptUntilExit: [any Workspace] = []
}

/// A form as `forms` lists it.
struct FormSummary: Sendable, Hashable {
    enum Source: String, Sendable { case spec, table, view }
    var name: String
    var title: String
    var source: Source
    var fieldCount: Int
    /// The table the form edits: a spec's may differ from its name.
    var table: String
    /// Where a spec came from (its file, "kept in the database"); "inferred" for a table.
    var origin: String
}

/// One field a save changed: its model value before and after.
struct FieldChange: Sendable, Hashable {
    var field: String
    var old: FieldValue
    var new: FieldValue
}

/// What `set` did: the changes it saved, and what it did not refuse.
struct RecordUpdate: Sendable, Hashable {
    var changes: [FieldChange]
    /// Rules that stored values of fields nobody changed already break.
    var warnings: [FieldError] = []
    /// Fields written that the database holds as before while the save changed others (a
    /// trigger set them back): `old` what was asked, `new` what is stored.
    var keptOtherwise: [FieldChange] = []

    /// What a save of an existing record changed: every field whose stored value moved, a
    /// trigger's change too (a version it bumped), not only the fields `written`; `before`
    /// and `asked` are the stored and the session's values just before the save. Only the
    /// fields written were listed, so a trigger that set the one asked for back, and changed
    /// another, was said as "No changes."; one that set back the only field asked for,
    /// changing nothing, was said so with no warning.
    init(_ session: FormSession, before: [String: FieldValue], asked: [String: FieldValue], written: [String]) {
        changes = session.form.fields.filter(\.holdsValue).compactMap { field in
            let old = before[field.key] ?? .null, new = session.pristine[field.key] ?? .null
            return old == new ? nil : FieldChange(field: field.key, old: old, new: new)
        }
        warnings = session.warnings
        keptOtherwise = written.compactMap { key in
            let stored = session.pristine[key] ?? .null
            guard let wanted = asked[key], wanted != stored, stored == before[key] ?? .null,
                  !Self.isSameDocument(wanted, stored) else { return nil }
            return FieldChange(field: key, old: wanted, new: stored)
        }
    }

    /// Two values that are one JSON document however spelled (spacing, key order, `1.0`
    /// for `1`): a PostgreSQL `jsonb` column keeps a document in its own spelling, and a
    /// column of no type holding a number stores `1.50` typed as the number 1.5, so what
    /// was typed is stored as it was, and no trigger set it back.
    static func isSameDocument(_ a: FieldValue, _ b: FieldValue) -> Bool {
        guard let one = document(a), let other = document(b) else { return false }
        return one.isSameDocument(as: other)
    }

    private static func document(_ value: FieldValue) -> JSONNode? {
        switch value {
        case .text(let text): return try? JSONReader.parse(Data(text.utf8))
        case .int(let integer): return .number(Double(integer), integer: integer)
        case .double(let real): return .number(real, integer: nil)
        default: return nil
        }
    }

    init(changes: [FieldChange], warnings: [FieldError] = []) {
        self.changes = changes
        self.warnings = warnings
    }
}

/// How `edit` talks to the person.
enum EditFrontEnd {
    case prompts(Prompter)
    /// The document in an editor; `messages` is where "Edit cancelled" and errors go.
    case editor(EditorLauncher, messages: any TextSink)
    /// The whole form on the terminal's screen; `messages` gets what is said after it closes.
    case fullScreen(environment: [String: String], messages: any TextSink)

    var usesEditor: Bool {
        if case .editor = self { return true }
        return false
    }
}

/// What an import did (or, with `--dry-run`, would do).
struct ImportSummary: Sendable, Hashable {
    var inserted: Int
    var updated: Int
    /// Rows that matched a stored record and changed nothing.
    var unchanged: Int = 0
    /// The problems of the first lines that failed (at most `ImportSummary.reportedFailureLimit`).
    var failures: [InputError]
    /// Every row that failed, reported or not.
    var failedRows: Int = 0

    /// How many problems an import keeps to report; the rest are only counted.
    static let reportedFailureLimit = 100

    init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, failures: [InputError] = [], failedRows: Int? = nil) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.failures = failures
        self.failedRows = failedRows ?? Set(failures.map(\.line)).count
    }
}

/// A draft named by id, or by form and record key.
enum DraftReference: Sendable, Hashable {
    case id(String)
    case record(form: String, key: KeyArgument)
}

extension Workspace {
    func form(named name: String, children: Bool) throws -> Form {
        try form(named: name).withoutGroups(unless: children)
    }

    func form(importing name: String, children: Bool, firstRecords: FirstRecords) throws -> Form {
        try form(named: name, children: children)
    }
}

extension Form {
    /// The form itself when `keep`, else its parent sections only.
    func withoutGroups(unless keep: Bool) -> Form {
        guard !keep else { return self }
        var copy = self
        copy.sections.removeAll { $0.group != nil }
        return copy
    }
}

extension Workspace {
    /// No rows refer to anything in a workspace without foreign keys.
    func deleteEffects(of form: Form, key: KeyArgument) throws -> [DeleteEffect] { [] }
    /// No schema text: `form --format sql` prints the form's idea of the table.
    func storedSchema(of form: Form) throws -> String? { nil }
    /// No database: no column is known to be untyped.
    func untypedFields(of form: Form) throws -> Set<String> { [] }
    /// No database: no column at all.
    func unnamedColumnCount(of form: Form) throws -> Int { 0 }
    /// No database: nothing it holds a table to.
    func schemaConstraints(of form: Form) throws -> SchemaConstraints { SchemaConstraints() }
    /// No labels: a workspace without pickers shows keys alone.
    func referenceLabels(of form: Form) throws -> ReferenceLabels? { nil }
    func rowReferenceLabels(of form: Form) throws -> [String: ReferenceLabels] { [:] }
}
