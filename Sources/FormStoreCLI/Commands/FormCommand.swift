struct FormCommand: ParsableCommand {
    enum Format: String { case text, json, jsonSchema = "json-schema" }

    static let configuration = CommandConfiguration(
        name: "form",
        abstract: "Show a form's fields: their kinds, rules and choices.",
        arguments: [Common.form],
        options: [Common.format(["text", "json", "json-schema"], default: "text")])

    let form: String
    let format: Format

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        format = try arguments.choice("format", default: .text)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let form = try context.workspace().form(named: form)
        context.terminal.output.write(FormDescription(form: form).render(format))
        return .success
    }
}
