struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "init", access: .create,
        abstract: "Create or upgrade FormStore's tables in the database.")

    init(parsing arguments: ParsedArguments) {}

    func run(_ context: CommandContext) throws -> ExitCode {
        let applied = try context.workspace().initialize()
        context.say(applied.isEmpty ? "Up to date: \(context.globals.shownDatabase)"
                                    : "Applied \(applied.count) migration(s) to \(context.globals.shownDatabase)")
        return .success
    }
}
