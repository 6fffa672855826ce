/// What a running command gets: its streams, the environment, the global
/// options, and (through `workspace()`) the forms and records.
struct CommandContext {
    var terminal: Terminal
    var environment: Environment
    var globals: GlobalOptions
    /// The running command and its parents, root first (for help and usage lines).
    var commandPath: [any ParsableCommand.Type]
    /// Opens the database and the form specs; see `WorkspaceProvider`.
    var workspaceProvider: WorkspaceProvider

    /// The forms and records of `globals.databasePath`. Every command that needs
    /// storage gets it here and nowhere else.
    /// It is opened as far as the command's configuration says (`access`).
    func workspace() throws -> any Workspace {
        guard let access = commandPath.last?.configuration.access else {
            preconditionFailure("\(commandPath.map { $0.configuration.name }) declares no database access")
        }
        return try workspaceProvider.open(globals, access, terminal.errors)
    }

    /// Writes a message line to stderr.
    func say(_ message: String) {
        terminal.errors.write(message + "\n")
    }
}

@available(*, unavailable)
extension CommandContext: Sendable {}
