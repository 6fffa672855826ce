import FormStoreTestSupport
import Foundation
import FormStorage
import Testing

@Suite struct DatabaseTests {
    let directory: TemporaryDirectory
    let db: Database

    init() throws {
        directory = try TemporaryDirectory()
        db = try Database(path: directory.path("db.sqlite"))
        try db.write { try $0.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, source TEXT, n INTEGER)") }
    }

    @Test func eightTasksWritingThroughOneHandleNeverSeeBusy() async throws {
        let db = self.db
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for n in 0..<50 {
                        try await db.write { conn in
                            try conn.execute("INSERT INTO t(source, n) VALUES (?, ?)", ["task \(task)", n])
                        }
                        _ = try await db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM t") }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM t") } == 400)
    }

    @Test func eightThreadsWritingAndReadingNeverSeeBusy() throws {
        let db = self.db
        let failures = FailureLog()
        let threads = (0..<8).map { thread in
            Thread {
                do {
                    for n in 0..<25 {
                        try db.write { try $0.execute("INSERT INTO t(source, n) VALUES (?, ?)", ["thread \(thread)", n]) }
                        _ = try db.read { try $0.fetchAll("SELECT * FROM t WHERE source = ?", ["thread \(thread)"]) }
                    }
                } catch {
                    failures.append(error)
                }
                failures.finishOne()
            }
        }
        threads.forEach { $0.start() }
        failures.waitFor(count: 8)
        #expect(failures.errors.isEmpty)
        #expect(try db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM t") } == 200)
    }

    @Test func twoProcessesWriteTheSameFile() throws {
        let shell = try SQLiteShell()
        let script = ".timeout 5000\n" + (0..<200).map { n in
            "BEGIN IMMEDIATE; INSERT INTO t(source, n) VALUES ('shell', \(n)); COMMIT;\n"
        }.joined()
        let process = try shell.start(database: db.path, script: script)
        for n in 0..<200 {
            try db.write { try $0.execute("INSERT INTO t(source, n) VALUES ('swift', ?)", [n]) }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let counts = try db.read { conn in
            try conn.fetchAll("SELECT source, count(*) FROM t GROUP BY source ORDER BY source")
                .map { try "\($0.value(at: 0, as: String.self))=\($0.value(at: 1, as: Int.self))" }
        }
        #expect(counts == ["shell=200", "swift=200"])
    }

    @Test func inMemoryDatabaseReadsThroughTheWriter() throws {
        let memory = try Database(path: ":memory:")
        try memory.write { try $0.execute("CREATE TABLE t(a)") }
        try memory.write { try $0.execute("INSERT INTO t VALUES (1)") }
        #expect(try memory.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM t") } == 1)
    }
}

/// Collects errors from threads and lets the test wait for them to finish.
private final class FailureLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var finished = 0
    private(set) var errors: [any Error] = []

    func append(_ error: any Error) {
        condition.lock()
        errors.append(error)
        condition.unlock()
    }

    func finishOne() {
        condition.lock()
        finished += 1
        condition.broadcast()
        condition.unlock()
    }

    func waitFor(count: Int) {
        condition.lock()
        while finished < count { condition.wait() }
        condition.unlock()
    }
}
