import FormCore
struct ShowCommand: ParsableCommand {
    enum Format: String, CaseIterable { case text, json }

    static let configuration = CommandConfiguration(
        name: "show", access: .read,
        abstract: "Show one record.",
        arguments: [Common.form, Common.key],
        options: [Common.format(Format.allCases, default: .text), Common.showSecure, Common.children])

    let form: String
    let key: KeyArgument
    let format: Format
    let revealSecure: Bool
    let children: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        key = try arguments.key("key")
        format = try arguments.choice("format", default: .text)
        revealSecure = arguments.flag("show-secure")
        children = arguments.flag("children")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let form = try workspace.form(named: form, children: children)
        let record = try workspace.record(of: form, key: key)
        let labels = try workspace.referenceLabels(of: form)
        let columns = OutputColumn.labelled(OutputColumn.columns(of: form), by: labels, revealSecure: revealSecure)
        let options = context.outputOptions(revealSecure: revealSecure)
        if children {
            context.printRecordWithChildren(record, of: form, json: format == .json, options: options, labels: labels,
                                            rowLabels: try workspace.rowReferenceLabels(of: form))
            return .success
        }
        var writer: any RecordWriter = format == .json
            ? JSONWriter(columns: columns, sink: context.terminal.output, options: options, style: .single)
            : TextRecordWriter(columns: columns, sink: context.terminal.output, options: options)
        writer.writeAll([columns.map { record.values[$0.key] ?? .null }])
        return .success
    }
}
