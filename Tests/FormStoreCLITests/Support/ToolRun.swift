import Foundation
@testable import FormStoreCLI

/// What one run of the command printed and returned.
struct ToolRun {
    var code: ExitCode
    var output: String
    var errors: String
}

/// Runs the command in-process with buffers for its streams.
/// `stdinIsTerminal` makes stdin look like a person's terminal (for questions).
func runTool(_ arguments: [String], environment: [String: String] = [:], stdin: String = "",
             stdinIsTerminal: Bool = false, workingDirectory: String = "/nonexistent",
             workspace: (any Workspace)? = nil) -> ToolRun {
    let output = BufferSink()
    let errors = BufferSink()
    let terminal = Terminal(input: BufferSource(stdin, isTerminal: stdinIsTerminal), output: output, errors: errors,
                            environment: environment)
    let provider = workspace.map { ws in WorkspaceProvider { _, _, _ in ws } } ?? .storage
    let code = CommandLineTool.run(arguments, environment: environment, terminal: terminal,
                                   workingDirectory: workingDirectory, workspaceProvider: provider)
    return ToolRun(code: code, output: output.text, errors: errors.text)
}

/// A scratch directory removed when the value goes away.
final class ScratchDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "formstore-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes an executable script and returns its path.
    func script(_ name: String, _ body: String) throws -> String {
        let file = path + "/" + name
        try ("#!/bin/sh\n" + body).write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file)
        return file
    }
}
