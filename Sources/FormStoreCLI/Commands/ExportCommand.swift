struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Export every record of a form to stdout, streamed.",
        arguments: [Common.form],
        options: [Common.format(["ndjson", "json", "csv"], default: "ndjson"), Common.showSecure])

    let form: String
    let format: OutputFormat
    let revealSecure: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        format = try arguments.choice("format", default: .ndjson)
        revealSecure = arguments.flag("show-secure")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let form = try workspace.form(named: form)
        let cursor = try workspace.records(of: form, matching: [], limit: nil)
        try context.write(cursor, of: form, format: format, revealSecure: revealSecure)
        return .success
    }
}
