import FormCore
/// `formstore choices FORM FIELD [--search TEXT]`: what a foreign-key field's
/// picker offers, read a page at a time (never the whole referenced table).
struct ChoicesCommand: ParsableCommand {
    enum Format: String, CaseIterable { case text, json }

    static let configuration = CommandConfiguration(
        name: "choices", access: .read,
        abstract: "List the rows a foreign-key field can refer to.",
        discussion: """
        FIELD is a field of the form, or GROUP.FIELD for a field of a repeating
        group's rows. Each row is shown by its label column (the spec's
        labelColumn, else the first text column that is UNIQUE or NOT NULL),
        sorted by it.
        """,
        arguments: [Common.form, ArgumentDefinition("field", help: "A foreign-key field (GROUP.FIELD for a row field).")],
        options: [
            .value("search", valueName: "text", help: "Only rows whose label holds TEXT (any case), or whose key is TEXT."),
            .value("limit", valueName: "n", help: "At most N rows (default 20).", check: .positiveInteger),
            Common.format(Format.allCases, default: .text),
        ])

    let form: String
    let field: String
    let search: String?
    let limit: Int
    let format: Format

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        field = try arguments.argument("field")
        search = arguments.value("search")
        limit = try arguments.positiveInteger("limit") ?? 20
        format = try arguments.choice("format", default: .text)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let form = try workspace.form(named: form)
        let choices = try workspace.choices(of: form, field: field, search: search, limit: limit)
        // The value is a referenced key, shown as `set` takes it (a BLOB in hex, not by its size).
        var value = OutputColumn(key: "value")
        value.isKey = true
        let columns = [value, OutputColumn(key: "label", kind: .text)]
        let options = context.outputOptions(revealSecure: false)
        var writer: any RecordWriter = format == .json
            ? JSONWriter(columns: columns, sink: context.terminal.output, options: options, style: .array)
            : TableWriter(columns: columns, sink: context.terminal.output, options: options)
        writer.writeAll(choices.map { [$0.value, .text($0.label)] })
        return .success
    }
}
