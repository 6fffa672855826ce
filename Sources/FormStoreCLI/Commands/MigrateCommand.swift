struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "migrate", access: .create,
        abstract: "Apply a folder of the user's numbered .sql migrations.",
        discussion: "Each file (001_create.sql, 002_…) is applied once, in order, in its own transaction.",
        arguments: [ArgumentDefinition("dir", help: "The folder of numbered .sql files.")])

    let directory: String

    init(parsing arguments: ParsedArguments) throws {
        directory = try arguments.argument("dir")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let applied = try context.workspace().migrate(directory: directory)
        for name in applied { context.terminal.output.write(name + "\n") }
        context.say(applied.isEmpty ? "No new migrations." : "Applied \(applied.count) migration(s).")
        return .success
    }
}
