struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "demo",
        abstract: "Create a demo database with example forms and rows.",
        arguments: [ArgumentDefinition("path", help: "Where to create it.", arity: .optional)])

    let path: String?

    init(parsing arguments: ParsedArguments) { path = arguments.value("path") }

    func run(_ context: CommandContext) throws -> ExitCode {
        let target = path ?? context.globals.databasePath
        try context.workspace().createDemo(at: target)
        context.say("Created the demo at \(target). Try: formstore --db \(target) forms")
        return .success
    }
}
