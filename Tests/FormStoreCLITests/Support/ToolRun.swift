import Foundation
@testable import FormStoreCLI

/// What one run of the command printed and returned.
struct ToolRun {
    var code: ExitCode
    var output: String
    var errors: String
}

/// Runs the command in-process with buffers for its streams.
/// `stdinIsTerminal` makes stdin look like a person's terminal (for questions),
/// `outputIsTerminal` stdout (which turns colour on).
func runTool(_ arguments: [String], environment: [String: String] = [:], stdin: String = "",
             stdinIsTerminal: Bool = false, outputIsTerminal: Bool = false, workingDirectory: String = "/nonexistent",
             workspace: (any Workspace)? = nil) -> ToolRun {
    let output = BufferSink(isTerminal: outputIsTerminal)
    let errors = BufferSink()
    let terminal = Terminal(input: BufferSource(stdin, isTerminal: stdinIsTerminal), output: output, errors: errors,
                            environment: environment)
    let provider = workspace.map { ws in WorkspaceProvider { _, _, _ in ws } } ?? .storage
    let code = CommandLineTool.run(arguments, environment: Environment(environment), terminal: terminal,
                                   workingDirectory: workingDirectory, workspaceProvider: provider)
    return ToolRun(code: code, output: output.text, errors: errors.text)
}
