struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List a form's records.",
        arguments: [Common.form],
        options: [
            .repeated("where", valueName: "field=value", help: "Only records whose FIELD equals VALUE.", check: .assignment),
            .value("limit", valueName: "n", help: "At most N records.", check: .positiveInteger),
            Common.format(["table", "json", "ndjson", "csv"], default: "table"),
            Common.showSecure,
        ])

    let form: String
    let filters: [Assignment]
    let limit: Int?
    let format: OutputFormat
    let revealSecure: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        filters = try arguments.assignments("where")
        limit = try arguments.positiveInteger("limit")
        format = try arguments.choice("format", default: .table)
        revealSecure = arguments.flag("show-secure")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let form = try workspace.form(named: form)
        try context.writeRecords(of: form, from: workspace, matching: filters, limit: limit,
                                 format: format, revealSecure: revealSecure)
        return .success
    }
}
