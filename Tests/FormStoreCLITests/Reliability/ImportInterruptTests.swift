import FormStoreTestSupport
import Foundation
import Testing

/// Ctrl-C (or SIGTERM) during an import: the rows it had written are undone,
/// the file is left byte for byte as it was, with no journal beside it, and
/// the command says so and exits 128 + the signal.
@Suite struct ImportInterruptTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedImportLeavesTheFileAsItWas(_ signal: Int32) throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER);
            INSERT INTO people VALUES (1, 'Ann', 40);
            """)
        let before = try Data(contentsOf: URL(fileURLWithPath: db.path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try formstoreBinary())
        process.arguments = ["--db", db.path, "import", "people", "--format", "ndjson"]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // More rows than a few read-ahead chunks: the import has written them in its transaction, and
        // waits for the rest, the pipe left open.
        let rows = (2...5000).map { #"{"id":\#($0),"name":"N\#($0)","age":\#($0 % 90)}"# }.joined(separator: "\n") + "\n"
        input.fileHandleForWriting.write(Data(rows.utf8))
        var journal = false
        for _ in 0..<200 where !journal {
            journal = FileManager.default.fileExists(atPath: db.path + "-journal")
            if !journal { usleep(25_000) }
        }
        #expect(journal, "the import never began writing")
        kill(process.processIdentifier, signal)
        for _ in 0..<400 where process.isRunning { usleep(25_000) }
        if process.isRunning {
            Issue.record("formstore did not end")
            process.terminate()
        }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + signal)
        #expect(stderr == "formstore: interrupted by \(name): nothing was imported, the database is as it was\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db.path)) == before)
        #expect(!FileManager.default.fileExists(atPath: db.path + "-journal"))
    }
}
