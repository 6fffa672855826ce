import FormCore

/// `draft show|restore|discard`: a group of subcommands.
struct DraftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "draft",
        abstract: "Show, restore or discard one draft.",
        subcommands: [DraftShowCommand.self, DraftRestoreCommand.self, DraftDiscardCommand.self])

    init(parsing arguments: ParsedArguments) {}
}

/// The draft a subcommand acts on: `FORM KEY`, or a `DRAFT-ID` alone.
enum DraftTarget {
    static let arguments = [
        ArgumentDefinition("form-or-draft-id", help: "A form's name (followed by KEY), or a draft's id."),
        ArgumentDefinition("key", help: "The record's key, when the first argument is a form.",
                           arity: .optional, check: .recordKey),
    ]
    static let usage = "(<form> <key> | <draft-id>)"

    static func reference(_ arguments: ParsedArguments) throws -> DraftReference {
        let first = try arguments.argument("form-or-draft-id")
        guard arguments.value("key") != nil else { return .id(first) }
        return .record(form: first, key: try arguments.key("key"))
    }
}

struct DraftShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "show", abstract: "Show a draft's values next to the stored ones.",
        usage: DraftTarget.usage + " [--format <format>]",
        arguments: DraftTarget.arguments, options: [Common.format(["text", "json"], default: "text")])

    let reference: DraftReference
    let format: ShowCommand.Format

    init(parsing arguments: ParsedArguments) throws {
        reference = try DraftTarget.reference(arguments)
        format = try arguments.choice("format", default: .text)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let draft = try context.workspace().draft(reference)
        let columns = [OutputColumn(key: "field"), OutputColumn(key: "stored"), OutputColumn(key: "draft")]
        let output: OutputFormat = format == .json ? .json : .table
        var writer = output.writer(columns: columns, to: context.terminal.output, options: context.outputOptions())
        let fields = Set(draft.values.keys).union(draft.inputs.keys).sorted()
        writer.writeAll(fields.map { field -> [FieldValue] in
            let drafted: FieldValue = draft.inputs[field].map(FieldValue.text) ?? draft.values[field] ?? .null
            return [.text(field), draft.base[field] ?? .null, drafted]
        })
        return .success
    }
}

struct DraftRestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "restore", abstract: "Save a draft over its record (merging when the record changed since).",
        usage: DraftTarget.usage, arguments: DraftTarget.arguments)

    let reference: DraftReference

    init(parsing arguments: ParsedArguments) throws { reference = try DraftTarget.reference(arguments) }

    func run(_ context: CommandContext) throws -> ExitCode {
        let record = try context.workspace().restoreDraft(reference)
        context.say("Restored and saved \(record.key).")
        return .success
    }
}

struct DraftDiscardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "discard", abstract: "Delete a draft.",
        usage: DraftTarget.usage, arguments: DraftTarget.arguments)

    let reference: DraftReference

    init(parsing arguments: ParsedArguments) throws { reference = try DraftTarget.reference(arguments) }

    func run(_ context: CommandContext) throws -> ExitCode {
        try context.workspace().discardDraft(reference)
        context.say("Draft discarded.")
        return .success
    }
}
