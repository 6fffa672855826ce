public import Foundation

/// Runs the `sqlite3` command-line shell as a separate process (a second
/// writer that shares no memory, locks or code with FormStorage). Like an
/// application's connection, it waits up to 5 s for a lock (`.timeout`).
public struct SQLiteShell {
    public let executable: URL

    /// The shell found on `PATH` (CI installs the `sqlite3` package).
    public init() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("sqlite3") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "sqlite3 shell not found on PATH"])
        }
        executable = found
    }

    /// Starts the shell on `database`, feeding it `script` on standard input.
    public func start(database: String, script: String) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-bail", "-cmd", ".timeout 5000", database]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        return process
    }
}

extension SQLiteShell {
    /// Runs one query in the shell and returns what it prints (rows as `a|b`, one a line).
    /// Its output goes to a file, read once the shell has ended: a pipe read
    /// to its end waited for any process that inherited its write end.
    public func output(database: String, _ sql: String) throws -> String {
        try runProcess(executable.path, ["-bail", "-cmd", ".timeout 5000", database, sql]).output
    }
}
