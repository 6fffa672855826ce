import FormStoreTestSupport
import Foundation
import Testing

/// A save at the prompts that the schema refuses (a CHECK) asks the field it
/// names again, with what else was typed kept, as the full-screen form puts
/// the focus on it: it ended the edit (exit 65), and a password typed was lost.
@Suite struct PromptRefusalTests {
    @Test func aCheckRefusalAsksItsFieldAgain() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER CHECK (age >= 0 AND age < 150));
            INSERT INTO person VALUES (1, 'Ann', 39);
            """)
        let run = try db.run(["edit", "person", "1", "--plain"], stdin: "Anna\n200\ny\n40\ny\n")
        #expect(run.code == 0, "\(run)")
        #expect(run.errors.contains("Not saved:\n  ! age: CHECK constraint failed: age >= 0 AND age < 150\nage [200]: "), "\(run)")
        #expect(run.errors.hasSuffix("Saved: name, age.\n"), "\(run)")
        #expect(try db.query("SELECT name, age FROM person") == "Anna|40\n")
    }

    /// A secret typed at the prompts is stored as typed: its brackets show
    /// no escapes, so none are read (`tab\there` stayed a backslash and a t,
    /// as `set password=@-` stores it, where the prompts made it a tab).
    @Test func aSecretIsStoredAsTyped() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT, password TEXT);
            INSERT INTO u VALUES (1, 'ann', 'x');
            """)
        let run = try db.run(["edit", "u", "1", "--plain"], stdin: "\n" + #"tab\there\n"# + "\ny\n")
        #expect(run.code == 0, "\(run)")
        #expect(try db.query("SELECT password FROM u") == #"tab\there\n"# + "\n")
    }

    /// An import run under `nohup` goes on when the terminal closes (SIGHUP):
    /// a signal the caller ignores stays ignored.
    @Test func anImportUnderNohupGoesOnAfterSIGHUP() throws {
        let db = try DemoDatabase(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nohup")
        process.arguments = [try formstoreBinary(), "--db", db.path, "import", "t", "--format", "ndjson"]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((1...3000).map { #"{"id":\#($0),"name":"n"}"# + "\n" }.joined().utf8))
        var writing = false
        for _ in 0..<200 where !writing {
            writing = FileManager.default.fileExists(atPath: db.path + "-journal")
            if !writing { usleep(25_000) }
        }
        #expect(writing)
        kill(process.processIdentifier, SIGHUP)
        usleep(200_000)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try db.query("SELECT count(*) FROM t") == "3000\n")
    }
}
