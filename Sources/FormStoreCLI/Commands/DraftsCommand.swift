import FoundationEssentials
import FormCore

struct DraftsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "drafts", access: .read,
        abstract: "List your drafts: edits kept but not saved (each user sees their own).",
        arguments: [ArgumentDefinition("form", help: "Only this form's drafts.", arity: .optional)],
        options: [Common.format([OutputFormat.table, .json], default: .table)])

    let form: String?
    let format: OutputFormat

    init(parsing arguments: ParsedArguments) throws {
        form = arguments.value("form")
        format = try arguments.choice("format", default: .table)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let drafts = try workspace.drafts(form: form)
        // No drafts of a name that is no form is a typo, not an empty list (a removed
        // spec's drafts are still listed by its name).
        if let form, drafts.isEmpty { _ = try workspace.form(named: form) }
        let columns = [OutputColumn(key: "id"), OutputColumn(key: "form"), OutputColumn(key: "key"),
                       OutputColumn(key: "fields"), OutputColumn(key: "updated")]
        var writer = format.writer(columns: columns, to: context.terminal.output, options: context.outputOptions())
        writer.writeAll(drafts.map { draft -> [FieldValue] in
            // A group whose rows changed is named as its fields are.
            let fields = draft.changedFields + draft.changedGroups
            return [.text(draft.id), .text(draft.form), draft.recordKey.map { .text($0.typedText) } ?? .null,
                    .list(fields.map(FieldValue.text)), .date(draft.updatedAt)]
        })
        return .success
    }
}
