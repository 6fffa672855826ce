import Foundation

/// Another process (the `sqlite3` shell) holding a database's write lock
/// (`BEGIN EXCLUSIVE`) until `release()`.
final class LockHolder {
    private let process = Process()
    private let input = Pipe()

    init(_ database: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", database]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\n.print locked\n".utf8))
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("locked") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
    }

    /// Ends the shell, and with it the transaction.
    func release() throws {
        guard process.isRunning else { return }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { try? release() }
}
