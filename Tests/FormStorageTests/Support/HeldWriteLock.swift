import FormStoreTestSupport
import Foundation

/// Another process (the `sqlite3` shell) holding a database's write lock
/// (`BEGIN IMMEDIATE`: readers go on, writers wait) until `release()`.
final class HeldWriteLock {
    private let process = Process()
    private let input = Pipe()

    /// Returns once the shell holds the lock.
    init(_ database: String, shell: SQLiteShell) throws {
        let output = Pipe()
        process.executableURL = shell.executable
        process.arguments = [database]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\n.print locked\n".utf8))
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("locked") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
    }

    /// True while the shell runs, and so holds the lock.
    var isHeld: Bool { process.isRunning }

    /// Ends the shell's input; the shell exits, and its transaction with it.
    /// Does not wait (the caller may be a task of the cooperative pool).
    func release() {
        try? input.fileHandleForWriting.close()
    }

    deinit {
        release()
        process.waitUntilExit()
    }
}

extension TemporaryDirectory {
    /// A fresh directory with an application's database in it, `app.sqlite`,
    /// made by running `script` in the `sqlite3` shell; and that file's path.
    static func withDatabase(_ script: String) throws -> (directory: TemporaryDirectory, path: String) {
        let directory = try TemporaryDirectory()
        let path = directory.path("app.sqlite")
        try SQLiteShell().run(database: path, script: script)
        return (directory, path)
    }
}

extension SQLiteShell {
    /// Runs `script` on `database` to the end, as an application's own setup would.
    func run(database: String, script: String) throws {
        let process = try start(database: database, script: script)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "sqlite3 failed on \(database)"])
        }
    }
}
