import FormStoreTestSupport
import Foundation
import Testing

/// An `--editor` edit ended by a signal while the editor is open.
struct InterruptedEdit {
    var code: Int32
    var errors: String
    /// The document's path, as the editor was given it.
    var document: String
    /// Whether the editor was still running once formstore had ended.
    var editorLeftRunning: Bool
}

extension DemoDatabase {
    /// Runs `formstore … arguments` (an `--editor` edit) with an editor that
    /// runs `script` on the document (`$1`), then waits to be ended; once it
    /// waits, sends formstore `signal` and waits for both to end (`nil`
    /// when the editor never started, recorded as an issue).
    ///
    /// - parameter temporary: the edit's `TMPDIR`, where its document is.
    func interruptEditor(_ arguments: [String], script: String, signal: Int32,
                         temporary: String) throws -> InterruptedEdit? {
        let marks = scratch.path + "/editor-\(signal)"
        try? FileManager.default.removeItem(atPath: marks + ".pid")
        let editor = try file("editor-\(signal).sh", """
            #!/bin/sh
            \(script)
            echo "$1" > "\(marks).document"
            echo $$ > "\(marks).pid"
            exec sleep 600

            """)
        chmod(editor, 0o755)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try formstoreBinary())
        process.arguments = ["--db", path, "--forms", formsDirectory] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["EDITOR": editor, "VISUAL": "", "TMPDIR": temporary, "XDG_STATE_HOME": stateDirectory, "NO_COLOR": "1"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var editorPID: pid_t?
        for _ in 0..<600 where editorPID == nil {
            editorPID = (try? String(contentsOfFile: marks + ".pid", encoding: .utf8))
                .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if editorPID == nil { usleep(50_000) }
        }
        guard let pid = editorPID else {
            process.terminate()
            Issue.record("the editor never started")
            return nil
        }
        let document = try String(contentsOfFile: marks + ".document", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        kill(process.processIdentifier, signal)
        for _ in 0..<600 where process.isRunning { usleep(50_000) }
        if process.isRunning {
            Issue.record("\(signal): formstore did not end")
            kill(process.processIdentifier, SIGKILL)
            kill(pid, SIGKILL)
        }
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // The editor is ended, not left running orphaned (it is reaped once it is gone).
        var alive = true
        for _ in 0..<600 where alive {
            alive = kill(pid, 0) == 0
            if alive { usleep(50_000) }
        }
        if alive { kill(pid, SIGKILL) }
        return InterruptedEdit(code: process.terminationStatus, errors: stderr, document: document, editorLeftRunning: alive)
    }
}
