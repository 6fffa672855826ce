public import FoundationEssentials
import Glibc

/// The `formstore` command: parses the arguments (without the program name),
/// runs the command and returns its exit code.
///
/// ```swift
/// let code = CommandLineTool.run(["list", "people", "--format", "json"])
/// ```
public enum CommandLineTool {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// Runs with the process's environment, streams and working directory.
    /// Variables are read one by one as the command needs them (`Environment`).
    public static func run(_ arguments: [String]) -> Int32 {
        let environment = Environment.process
        let terminal = Terminal.standard(environment: environment.only(Terminal.variables))
        // `CommandLine.arguments` holds U+FFFD for bytes that are no UTF-8: such a value would be
        // stored, or such a path open another file, as something nobody typed.
        if let position = (1..<Int(CommandLine.argc)).first(where: { index in
            CommandLine.unsafeArgv[index].map { String(validatingCString: $0) == nil } ?? false
        }) {
            defer { terminal.flush() }
            return report(.usage("argument \(position) (\(arguments[position - 1])) is not UTF-8 text: "
                                 + "give values and paths in UTF-8"), path: [FormStoreCommand.self], terminal: terminal).rawValue
        }
        return run(arguments, environment: environment, terminal: terminal,
                   workingDirectory: FileManager.default.currentDirectoryPath, workspaceProvider: .storageUntilExit).rawValue
    }

    /// Runs against the given streams; tests pass buffers.
    public static func run(_ arguments: [String], environment: [String: String], terminal: Terminal,
                           workingDirectory: String = FileManager.default.currentDirectoryPath) -> Int32 {
        run(arguments, environment: Environment(environment), terminal: terminal, workingDirectory: workingDirectory,
            workspaceProvider: .storage).rawValue
    }

    static func run(_ arguments: [String], environment: Environment, terminal: Terminal,
                    workingDirectory: String, workspaceProvider: WorkspaceProvider) -> ExitCode {
        defer { terminal.flush() }
        let parser = CommandParser(root: FormStoreCommand.self)
        let invocation: CommandParser.Invocation
        do {
            invocation = try parser.parse(arguments)
        } catch let failure as CommandParser.Failure {
            return report(failure.error, path: failure.path, terminal: terminal)
        } catch {
            return report(CLIError.classifying(error), path: [FormStoreCommand.self], terminal: terminal)
        }

        switch invocation.action {
        case .help:
            terminal.output.write(HelpFormatter(path: invocation.path).help())
            return .success
        case .version:
            terminal.output.write("\(version)\n")
            return .success
        case .run(let command):
            let globals: GlobalOptions
            do {
                globals = try GlobalOptions(invocation.globals, environment: environment, workingDirectory: workingDirectory)
            } catch {
                return report(error, path: invocation.path, terminal: terminal)
            }
            let context = CommandContext(
                terminal: terminal, environment: environment, globals: globals,
                commandPath: invocation.path, workspaceProvider: workspaceProvider)
            do {
                let code = try command.run(context)
                terminal.output.flush()
                if let sink = terminal.output as? FileDescriptorSink, let error = sink.writeError {
                    var problem = CLIError.storage("cannot write output: \(Self.reason(error))")
                    // What the command wrote stands: said, so that nobody runs it again (a second record).
                    if code == .success, invocation.path.last?.configuration.access?.isReadOnly == false {
                        problem = problem.adding(details: ["the command's change was made; only what it prints was lost"])
                    }
                    return report(problem, path: invocation.path, terminal: terminal)
                }
                return code
            } catch {
                return report(CLIError.classifying(error, databasePath: context.globals.shownDatabase),
                              path: invocation.path, terminal: terminal)
            }
        }
    }

    /// A system error in words (`No space left on device`), not its Swift type.
    private static func reason(_ error: any Error) -> String {
        guard let posix = error as? POSIXError else { return "\(error)" }
        return String(cString: strerror(posix.code.rawValue))
    }

    /// Usage errors: two lines, `Error: …` and the usage line; others: `formstore: …`.
    private static func report(_ error: CLIError, path: [any ParsableCommand.Type], terminal: Terminal) -> ExitCode {
        terminal.output.flush()
        if error.isUsage {
            terminal.errors.write("Error: \(error.message.singleLine.clippedForMessage)\n" + HelpFormatter(path: path).usageErrorFooter)
        } else {
            // One line each, whatever a value or SQLite's message holds.
            var text = "formstore: \(error.message.singleLine.clippedForMessage)\n"
            for line in error.details { text += "  \(line.singleLine.clippedForMessage)\n" }
            terminal.errors.write(text)
        }
        return error.exitCode
    }
}
