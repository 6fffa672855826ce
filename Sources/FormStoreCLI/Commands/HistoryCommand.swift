import FormBasics
import FormCore

struct HistoryCommand: ParsableCommand {
    /// Why a record's history is empty where saves record none yet (the command's words and the web
    /// page's): a SQLite file's history is in the file once `init` ran, or in its sidecar once a draft
    /// was kept; PostgreSQL's in FormStore's tables, which `init`, `edit` and `serve` make.
    static func notKeptYet(database: String) -> String {
        GlobalOptions.isPostgresURL(database)
            ? "no history is kept for this database yet: saves record it once FormStore's tables are there "
                + "('formstore init' makes them, as an edit does)"
            : "no history is kept for this database yet: saves record it once "
                + "'formstore init' has run, or a draft was kept (its sidecar holds it)"
    }

    static let configuration = CommandConfiguration(
        name: "history", access: .read,
        abstract: "List a record's saved changes: when, who, through what, each field's old and new value.",
        discussion: """
        Every save through FormStore (set, new, edit, revert, draft restore, a
        program using the library) records the fields it changed. History lives
        where drafts live: in the database after 'formstore init', else in the
        database's sidecar once it exists. Secure fields are listed as changed,
        never with their values. CHANGE is what 'formstore revert --change' takes.
        """,
        arguments: [Common.form, Common.key],
        options: [.value("field", valueName: "field", help: "Only the changes of this field."),
                  Common.format([OutputFormat.table, .json], default: .table)])

    let form: String
    let key: KeyArgument
    let field: String?
    let format: OutputFormat

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        key = try arguments.key("key")
        field = arguments.value("field")
        format = try arguments.choice("format", default: .table)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let form = try workspace.form(named: form)
        guard let history = workspace as? any HistoryWorkspace else {
            throw CLIError.failure("this storage keeps no history")
        }
        let changes = try history.history(of: form, key: key, field: field)
        if changes.isEmpty {
            // A deleted record's history is still listed; a key nothing ever had is not found.
            _ = try workspace.record(of: form, key: key)
        }
        if changes.isEmpty, try !history.isRecordingHistory() {
            // An empty list would read as "never changed": say why there is none.
            context.say("formstore: " + Self.notKeptYet(database: context.globals.databasePath))
        }
        let columns = ["change", "at", "actor", "via", "field", "old", "new", "secure"].map { OutputColumn(key: $0) }
        var writer = format.writer(columns: format == .json ? columns : Array(columns.dropLast()),
                                   to: context.terminal.output, options: context.outputOptions())
        writer.writeAll(changes.flatMap { change in
            change.fields.map { field -> [FieldValue] in
                let described = form.field(field.field)
                let notKept: FieldValue = format == .json ? .null : .text("(secure: not kept)")
                let old = field.old.map { SetCommand.shownChange($0, of: described, key: field.field, json: format == .json) }
                let new = field.new.map { SetCommand.shownChange($0, of: described, key: field.field, json: format == .json) }
                var row: [FieldValue] = [.int(change.id), .text(ISO8601.shortDateTime(change.changedAt)),
                                         change.attribution.actor.map(FieldValue.text) ?? .null,
                                         .text(change.attribution.via.rawValue), .text(field.field),
                                         old ?? notKept, new ?? notKept]
                if format == .json { row.append(.bool(field.isSecure)) }
                return row
            }
        })
        return .success
    }
}
