import FormCore
import FormStoreTestSupport
import Foundation
import Testing
import FormStorage

/// Saves through the async API that queue up while the writer is busy share
/// one commit (group commit). Each must still behave as if it had committed
/// alone: in the order asked, its own failure or cancellation undoing only
/// itself, its history recorded, and readers not waiting for it. Another
/// process holds the write lock so that the saves queue up together.
@Suite struct GroupCommitTests {
    let directory: TemporaryDirectory
    let shell: SQLiteShell
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        shell = try SQLiteShell()
        path = directory.path("tickets.sqlite")
        // The application's own rule: a title is at most 20 characters.
        try shell.run(database: path, script: """
            CREATE TABLE tickets (id INTEGER PRIMARY KEY, title TEXT NOT NULL CHECK (length(title) <= 20),
                                  status TEXT NOT NULL DEFAULT 'open');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8)
            INSERT INTO tickets (id, title) SELECT i, 'ticket ' || i FROM n;
            """)
    }

    var form: Form { AsyncStoreTests.ticketForm }

    /// The application's store, made FormStore's (`initialize`) so that saves keep history.
    func store() async throws -> FormStore {
        var configuration = Configuration()
        configuration.busyTimeout = .seconds(60)
        let store = try await FormStore.open(path: path, configuration: configuration,
                                             sidecarDirectory: directory.url.appendingPathComponent("state"))
        try store.initialize()
        return store
    }

    func rows() throws -> [[String]] {
        try Connection(path: path).fetchAll("SELECT title, status FROM tickets ORDER BY id").map {
            [try $0.value(at: 0, as: String.self), try $0.value(at: 1, as: String.self)]
        }
    }

    /// Starts a save of `field` on a session already open, and waits until it has been asked for.
    func startSave(_ session: sending FormSession, _ field: String, _ value: String) async throws
        -> Task<SaveOutcome, any Error> {
        try session.set(field, input: value)
        let task = Task { try await session.save() }
        try await Task.sleep(for: .milliseconds(100))
        return task
    }

    static func open(_ id: Int64, in store: FormStore) async throws -> FormSession {
        try await FormSession.open(AsyncStoreTests.ticketForm, key: RecordKey("id", .int(id)), backend: store)
    }

    @Test func eightQueuedSavesAllCommitWithTheirHistory() async throws {
        let store = try await store()
        let lock = try HeldWriteLock(path, shell: shell)
        let outcomes = try await withThrowingTaskGroup(of: SaveOutcome.self) { group in
            for id in Int64(1)...8 {
                group.addTask { try await AsyncStoreTests.retitle(id, to: "saved \(id)", in: store) }
            }
            try await Task.sleep(for: .milliseconds(500))
            lock.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter(\.isSuccess).count == 8, "\(outcomes)")
        #expect(try rows().map(\.[0]) == (1...8).map { "saved \($0)" })
        for id in Int64(1)...8 {
            let changes = try store.history(form, key: RecordKey("id", .int(id)))
            #expect(changes.map { $0.fields.map(\.field) } == [["title"]])
        }
    }

    @Test func aSaveTheDatabaseRefusesUndoesOnlyItself() async throws {
        let store = try await store()
        let (one, two, three) = (try await Self.open(1, in: store), try await Self.open(2, in: store), try await Self.open(3, in: store))
        let lock = try HeldWriteLock(path, shell: shell)
        let first = try await startSave(one, "title", "first")
        let refused = try await startSave(two, "title", "a title far longer than twenty")
        let third = try await startSave(three, "status", "closed")
        lock.release()
        #expect(try await first.value.isSuccess)
        await #expect(throws: DatabaseError.self) { try await refused.value }
        #expect(try await third.value.isSuccess)
        #expect(try rows().prefix(3) == [["first", "open"], ["ticket 2", "open"], ["ticket 3", "closed"]])
        #expect(try store.history(form, key: RecordKey("id", 2)).isEmpty)
        #expect(try await AsyncStoreTests.retitle(2, to: "second", in: store).isSuccess)
        #expect(try rows()[1] == ["second", "open"])
    }

    @Test func queuedSavesOfOneRecordRunInTheOrderAsked() async throws {
        let store = try await store()
        // Both sessions read the record before either saves: each changes the status.
        let earlier = try await Self.open(1, in: store)
        let later = try await Self.open(1, in: store)
        let lock = try HeldWriteLock(path, shell: shell)
        let first = try await startSave(earlier, "status", "closed")
        let second = try await startSave(later, "status", "on hold")
        lock.release()
        // The earlier save wins; the later one sees the status changed under it.
        #expect(try await first.value.isSuccess)
        guard case .conflict(let conflicts) = try await second.value else {
            Issue.record("the later save did not see the earlier one")
            return
        }
        #expect(conflicts.map(\.field) == ["status"])
        #expect(try rows()[0] == ["ticket 1", "closed"])
    }

    @Test func aCancelledSaveAmongQueuedOnesWritesNothingAndTheOthersCommit() async throws {
        let store = try await store()
        let (one, two, three) = (try await Self.open(1, in: store), try await Self.open(2, in: store), try await Self.open(3, in: store))
        let lock = try HeldWriteLock(path, shell: shell)
        let first = try await startSave(one, "title", "first")
        let cancelled = try await startSave(two, "title", "never written")
        let third = try await startSave(three, "title", "third")
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(lock.isHeld)
        lock.release()
        #expect(try await first.value.isSuccess)
        #expect(try await third.value.isSuccess)
        #expect(try rows().prefix(3).map(\.[0]) == ["first", "ticket 2", "third"])
        #expect(try store.history(form, key: RecordKey("id", 2)).isEmpty)
    }

    @Test func readsGoOnWhileSavesWaitForTheWriter() async throws {
        let store = try await store()
        let session = try await Self.open(1, in: store)
        let lock = try HeldWriteLock(path, shell: shell)
        let waiting = try await startSave(session, "title", "saved")
        // The save waits for the other process; a read of the same record does not.
        let read = try await store.load(form, key: RecordKey("id", 1))
        #expect(read?.values["title"] == "ticket 1")
        #expect(try await store.records(form).count == 8)
        #expect(lock.isHeld)
        lock.release()
        #expect(try await waiting.value.isSuccess)
        #expect(try await store.load(form, key: RecordKey("id", 1))?.values["title"] == "saved")
    }
}
