struct FormCommand: ParsableCommand {
    enum Format: String, CaseIterable { case text, json, jsonSchema = "json-schema", sql }

    static let configuration = CommandConfiguration(
        name: "form", access: .read,
        abstract: "Show a form's fields: their kinds, rules and choices.",
        discussion: "--format sql prints the CREATE TABLE the form needs (types, NOT NULL, CHECK … IN for choices, defaults), to start a migration with; for a table's inferred form, the table's own CREATE statement as SQLite keeps it.",
        arguments: [Common.form],
        options: [Common.format(Format.allCases, default: .text), Common.children])

    let form: String
    let format: Format
    let children: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        format = try arguments.choice("format", default: .text)
        children = arguments.flag("children")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let form = try workspace.form(named: form, children: children)
        if format == .sql, let stored = try workspace.storedSchema(of: form) {
            context.terminal.output.write(stored)
            return .success
        }
        let untyped = format == .jsonSchema ? try workspace.untypedFields(of: form) : []
        let constraints = format == .text ? try workspace.schemaConstraints(of: form) : SchemaConstraints()
        context.terminal.output.write(try FormDescription(form: form, untyped: untyped, constraints: constraints).render(format))
        return .success
    }
}
