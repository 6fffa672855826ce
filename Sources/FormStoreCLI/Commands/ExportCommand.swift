struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Export every record of a form to stdout, streamed.",
        discussion: "Secure fields (passwords) are left out unless --show-secure is given.",
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
        // An export is read back by import: a mask would be imported as the value, so secure fields are left out.
        try context.writeRecords(of: form, from: workspace, format: format, revealSecure: revealSecure,
                                 omittingSecure: true)
        return .success
    }
}
