import FormCore
struct FormsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "forms", access: .read,
        abstract: "List forms: from spec files, and every table (inferred).",
        discussion: """
            Each form's table is the one it edits (a spec may name another), and its origin says \
            where it came from: the spec file (in --forms, ./forms by default), "kept in the \
            database" (only for a database 'formstore init' was run on), or "inferred" from a table.
            """,
        options: [Common.format([OutputFormat.table, .json], default: .table)])

    let format: OutputFormat

    init(parsing arguments: ParsedArguments) throws {
        format = try arguments.choice("format", default: .table)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let summaries = try context.workspace().formSummaries()
        let columns = [OutputColumn(key: "name"), OutputColumn(key: "title"), OutputColumn(key: "source"),
                       OutputColumn(key: "fields", kind: .integer), OutputColumn(key: "table"), OutputColumn(key: "origin")]
        var writer = format.writer(columns: columns, to: context.terminal.output, options: context.outputOptions())
        writer.writeAll(summaries.map {
            [.text($0.name), .text($0.title), .text($0.source.rawValue), .int(Int64($0.fieldCount)),
             .text($0.table), .text($0.origin)]
        })
        return .success
    }
}
