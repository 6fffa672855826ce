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
        // Written through a close-on-exec descriptor: a child another test forks meanwhile
        // must not inherit it open for writing, or running the script fails with ETXTBSY (126).
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let bytes = Array(("#!/bin/sh\n" + body).utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        return file
    }
}
