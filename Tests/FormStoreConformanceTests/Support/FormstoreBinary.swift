import Foundation
import Testing

/// The built `formstore` command, run as a script runs it: arguments in,
/// stdin from a file, stdout and stderr to files, and its exit code. Spawned
/// with posix_spawn and waitpid (not `Process`, whose run loop tests running
/// in parallel starve), so several can run at once from one test.
enum FormstoreBinary {
    struct Run: CustomStringConvertible {
        var code: Int32
        var output: String
        var errors: String
        var description: String { "exit \(code)\nstdout: \(output)\nstderr: \(errors)" }
    }

    /// `.build/debug/formstore` beside the test bundle, else under the package.
    static func path() throws -> String {
        var candidates: [String] = []
        if let bundle = Bundle.main.executableURL?.deletingLastPathComponent() {
            candidates.append(bundle.appendingPathComponent("formstore").path)
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/formstore").path)
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
                            "the formstore binary is not built")
    }

    static func run(_ arguments: [String], stdin: String = "") throws -> Run {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("formstore-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let files = ["in", "out", "err"].map { scratch.appendingPathComponent($0).path }
        try Data(stdin.utf8).write(to: URL(fileURLWithPath: files[0]))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, files[0], O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, files[1], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, files[2], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "FORMSTORE_DB")
        environment["NO_COLOR"] = "1"
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        let executable = try path()
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // Exited normally: the code is in the second byte of the status.
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Run(code: code, output: try String(contentsOfFile: files[1], encoding: .utf8),
                   errors: try String(contentsOfFile: files[2], encoding: .utf8))
    }
}
