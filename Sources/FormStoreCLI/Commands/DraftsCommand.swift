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
        let drafts = try context.workspace().drafts(form: form)
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
