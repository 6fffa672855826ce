import FormCore

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "export", access: .read,
        abstract: "Export every record of a form to stdout, streamed.",
        discussion: """
            Each column is written exactly as stored, so that import reads it back byte for byte: \
            integers and reals as JSON numbers, text as strings, NULL as null, BLOBs as {"$base64": "…"} \
            (CSV: see docs/fidelity.md). In CSV a text cell starting with =, +, -, @, a tab or a CR gets a ' \
            in front so that a spreadsheet does not run it as a formula; import keeps that ' as text, so export \
            with --raw-csv (or as NDJSON) to read it back unchanged. Secure fields (passwords) are left out unless --show-secure is given. \
            --where, --search, --sort, --offset and --limit choose records as in list. \
            With --children (JSON and NDJSON only: CSV is refused, since child rows do not fit a flat row) each \
            record carries a member per child group, an array of row objects with their keys, which \
            import --children reads back.
            """,
        arguments: [Common.form],
        options: RecordSelection.options + [Common.format([OutputFormat.ndjson, .json, .csv], default: .ndjson), Common.showSecure, Common.rawCSV, Common.children])

    let form: String
    let selection: RecordSelection
    let format: OutputFormat
    let revealSecure: Bool
    let rawCSV: Bool
    let children: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        selection = try RecordSelection(parsing: arguments)
        format = try arguments.choice("format", default: .ndjson)
        revealSecure = arguments.flag("show-secure")
        rawCSV = arguments.flag("raw-csv")
        children = arguments.flag("children")
        if children && format == .csv {
            throw CLIError.usage("--children needs --format json or ndjson: child rows do not fit in a flat CSV row")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        if children {
            let form = try workspace.form(named: form, children: true)
            try warnOfUnnamedColumns(form, workspace: workspace, context: context)
            try context.exportRecordsWithChildren(of: form, from: workspace,
                                                  selection: selection, format: format, revealSecure: revealSecure)
            return .success
        }
        let form = try workspace.form(named: form)
        try warnOfUnnamedColumns(form, workspace: workspace, context: context)
        // An export is read back by import: a mask would be imported as the value, so secure fields are left out.
        try context.writeRecords(of: form, from: workspace, selection: selection, format: format,
                                 revealSecure: revealSecure, storedValues: true, omittingSecure: true,
                                 protectsFormulas: !rawCSV)
        return .success
    }

    /// A column named `""` (SQLite allows it) is in no form, so not in the
    /// export: said on stderr, as what an import of the file will not restore.
    private func warnOfUnnamedColumns(_ form: Form, workspace: any Workspace, context: CommandContext) throws {
        let count = try workspace.unnamedColumnCount(of: form)
        guard count > 0 else { return }
        context.say("formstore: warning: "
                    + "\(form.tableName) has \(count == 1 ? "a column" : "\(count) columns") named '' (an empty name), "
                     + "which no field can name: \(count == 1 ? "it is" : "they are") not exported")
    }
}
