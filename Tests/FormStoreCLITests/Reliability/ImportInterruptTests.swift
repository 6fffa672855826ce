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

    /// Ctrl-C while the import waits for another process's lock stops it at
    /// once (it waited out the 5 s grace, saying the journal would undo rows
    /// it never wrote), and the file is as it was.
    @Test func aSignalDuringALocksWaitStopsTheImportAtOnce() throws {
        let db = try DemoDatabase(sql: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT);")
        let holder = try LockHolder(db.path)
        defer { try? holder.release() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try formstoreBinary())
        process.arguments = ["--db", db.path, "import", "people", "--format", "ndjson"]
        process.environment = ProcessInfo.processInfo.environment.merging(["FORMSTORE_BUSY_TIMEOUT_MS": "60000"]) { $1 }
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(#"{"id": 1, "name": "Ann"}"#.utf8 + [10]))
        try input.fileHandleForWriting.close()
        usleep(700_000)  // waiting for the lock
        let sent = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 3, "it waited out the grace")
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130 && stderr == "formstore: interrupted by SIGINT: nothing was imported, the database is as it was\n",
                "\(stderr)")
        try holder.release()
        #expect(try db.query("SELECT count(*) FROM people") == "0\n")
    }

    /// A signal once the import committed (while the database closes, its
    /// WAL checkpointed) finds it done: exit 0, as "Imported" said. It was
    /// killed with 130, which says "nothing was imported", and a script
    /// trusting that would import the rows twice.
    @Test func aSignalAfterTheCommitLeavesTheImportDone() throws {
        let db = try DemoDatabase(sql: "PRAGMA journal_mode = wal; CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT);")
        let rows = (1...20000).map { #"{"id": \#($0), "pad": "\#(String(repeating: "p", count: 300))"}"# }.joined(separator: "\n") + "\n"
        let file = URL(fileURLWithPath: db.scratch.path + "/rows.ndjson")
        try Data(rows.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try formstoreBinary())
        process.arguments = ["--db", db.path, "import", "t", file.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The first bytes of "Imported …": the commit is done.
        _ = errors.fileHandleForReading.readData(ofLength: 8)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(try db.query("SELECT count(*) FROM t") == "20000\n")
    }
}
