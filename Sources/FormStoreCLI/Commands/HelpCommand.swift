/// `help [COMMAND ...]`: the same help as `COMMAND --help`.
struct HelpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "help", access: nil,
        abstract: "Show help for a command.",
        arguments: [ArgumentDefinition("subcommand", help: "The command (and subcommand) to explain.",
                                       arity: .variadic(minimum: 0))])

    let names: [String]

    init(parsing arguments: ParsedArguments) { names = arguments.all("subcommand") }

    func run(_ context: CommandContext) throws -> ExitCode {
        var path: [any ParsableCommand.Type] = [context.commandPath[0]]
        for name in names {
            let configuration = path.last!.configuration
            guard let sub = configuration.subcommand(named: name) else {
                var message = "Unknown command '\(name)'"
                if let guess = Suggestion.closest(to: name, among: configuration.subcommands.map { $0.configuration.name }) {
                    message += ". Did you mean '\(guess)'?"
                }
                throw CLIError.usage(message)
            }
            path.append(sub)
        }
        context.terminal.output.write(HelpFormatter(path: path).help())
        return .success
    }
}
