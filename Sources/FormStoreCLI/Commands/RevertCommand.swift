import FormBasics
import FormCore

struct RevertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "revert", access: .write,
        abstract: "Put a record's fields back as its history says: as they were at a time, or before one change.",
        discussion: """
        The values are saved through a form session like 'set': validated, and
        refused as a conflict (exit 75) when a field no longer holds what its
        last recorded change wrote (someone changed it since, or outside
        FormStore). The revert is a new change in the history. Secure fields,
        whose values history never keeps, are left as they are and named on stderr.
        """ + "\n\n" + Common.refusedAsJSON,
        arguments: [Common.form, Common.key],
        options: [.value("to", valueName: "time", help: "Undo every change after this time (ISO-8601, UTC unless a zone is given)."),
                  .value("change", valueName: "id", help: "Undo this one change ('formstore history' lists them)."),
                  Common.format(ShowCommand.Format.allCases, default: .text)])

    let form: String
    let key: KeyArgument
    let target: RevertTarget
    let format: ShowCommand.Format

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        key = try arguments.key("key")
        format = try arguments.choice("format", default: .text)
        switch (arguments.value("to"), arguments.value("change")) {
        case (let time?, nil):
            guard let date = ISO8601.parseDateTime(time) ?? ISO8601.parseDate(time) else {
                throw CLIError.usage("--to \(time): not a time (write 2026-01-31T12:00:00Z or 2026-01-31)")
            }
            target = .time(date)
        case (nil, let change?):
            guard let id = Int64(change), id > 0 else { throw CLIError.usage("--change \(change): not a change number") }
            target = .change(id)
        default:
            throw CLIError.usage("give either --to TIME or --change ID")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let form = try workspace.form(named: form)
        guard let history = workspace as? any HistoryWorkspace else {
            throw CLIError.failure("this storage keeps no history")
        }
        let (update, skipped) = try format.reportingRejection(context) {
            try history.revert(form, key: key, to: target)
        }
        if update.changes.isEmpty, skipped.isEmpty, try !history.isRecordingHistory() {
            // "No changes." would read as "nothing to undo": there is no history to undo from.
            context.say("formstore: " + HistoryCommand.notKeptYet(database: context.globals.databasePath))
        }
        for note in skipped { context.say("formstore: \(form.name) \(key.text): \(note)") }
        SetCommand.write(update.changes, of: form, format: format, context)
        return .success
    }
}
