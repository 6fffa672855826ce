struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "list", access: .read,
        abstract: "List a form's records.",
        arguments: [Common.form],
        options: RecordSelection.options + [
            Common.format([OutputFormat.table, .json, .ndjson, .csv], default: .table),
            Common.showSecure,
            Common.rawCSV,
        ])

    let form: String
    let selection: RecordSelection
    let format: OutputFormat
    let revealSecure: Bool
    let rawCSV: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        selection = try RecordSelection(parsing: arguments)
        format = try arguments.choice("format", default: .table)
        revealSecure = arguments.flag("show-secure")
        rawCSV = arguments.flag("raw-csv")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let form = try workspace.form(named: form)
        // CSV is data for spreadsheets: a label would be a column of its own.
        let labels = format == .csv ? nil : try workspace.referenceLabels(of: form)
        try context.writeRecords(of: form, from: workspace, selection: selection,
                                 format: format, revealSecure: revealSecure, protectsFormulas: !rawCSV, labels: labels)
        return .success
    }
}
