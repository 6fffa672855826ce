/// One command of the tree: its help and declared inputs in `configuration`,
/// its parsed values from `init(parsing:)`, and `run(_:)`.
///
/// ```swift
/// struct ShowCommand: ParsableCommand {
///     static let configuration = CommandConfiguration(
///         name: "show", access: .read, abstract: "Show one record.",
///         arguments: [.init("form", help: "The form.")])
///     let form: String
///     init(parsing arguments: ParsedArguments) throws { form = try arguments.argument("form") }
///     func run(_ context: CommandContext) throws -> ExitCode { … }
/// }
/// ```
///
/// A command that only groups subcommands keeps the default `run`, which prints its help.
protocol ParsableCommand: Sendable {
    static var configuration: CommandConfiguration { get }
    /// Reads the values the parser checked against `configuration`. Throwing
    /// `CLIError.usage` here reports a usage error (exit 64).
    init(parsing arguments: ParsedArguments) throws
    func run(_ context: CommandContext) throws -> ExitCode
}

extension ParsableCommand {
    func run(_ context: CommandContext) throws -> ExitCode {
        context.terminal.output.write(HelpFormatter(path: context.commandPath).help())
        return .success
    }
}
