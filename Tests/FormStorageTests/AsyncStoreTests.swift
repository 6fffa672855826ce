import FormCore
import FormStoreTestSupport
import Foundation
import Testing
import FormStorage
import Synchronization

/// The async API in a service's shoes: the database is an application's (made
/// by the `sqlite3` shell, left in its rollback journal), and another process
/// holds its write lock while request tasks save.
@Suite struct AsyncStoreTests {
    let directory: TemporaryDirectory
    let shell: SQLiteShell
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        shell = try SQLiteShell()
        path = directory.path("tickets.sqlite")
        try shell.run(database: path, script: """
            CREATE TABLE tickets (id INTEGER PRIMARY KEY, title TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'open');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8)
            INSERT INTO tickets (id, title) SELECT i, 'ticket ' || i FROM n;
            """)
    }

    static let ticketForm: Form = {
        var title = Field(key: "title", label: "Title", kind: .text)
        title.isRequired = true
        var form = Form(name: "ticket", sections: [Section(fields: [
            title, Field(key: "status", label: "Status", kind: .text),
        ])])
        form.table = "tickets"
        return form
    }()

    func store(busyTimeout: Duration = .seconds(5)) async throws -> FormStore {
        var configuration = Configuration()
        configuration.busyTimeout = busyTimeout
        return try await FormStore.open(path: path, configuration: configuration,
                                        sidecarDirectory: directory.url.appendingPathComponent("state"))
    }

    func titles() throws -> [String] {
        try Connection(path: path).fetchAll("SELECT title FROM tickets ORDER BY id").map { try $0.value(at: 0, as: String.self) }
    }

    /// Opens ticket `id`, retitles it and saves, all through the async API.
    static func retitle(_ id: Int64, to title: String, in store: FormStore) async throws -> SaveOutcome {
        let session = try await FormSession.open(ticketForm, key: RecordKey("id", .int(id)), backend: store)
        try session.set("title", input: title)
        return try await session.save()
    }

    @Test func aHeartbeatKeepsItsPeriodWhileEightSavesWaitForAnotherProcesssLock() async throws {
        // However late a busy test machine lets the lock go, the saves wait for it.
        let store = try await store(busyTimeout: .seconds(60))
        // Everything here runs on two threads of its own, as on a 2-core
        // machine's cooperative pool (the shared pool is busy with the other
        // tests' blocking work): a save blocking a thread would stall the beat.
        let pool = SmallThreadPool(threadCount: 2)
        defer { pool.stop(threadCount: 2) }
        let lock = try HeldWriteLock(path, shell: shell)
        let period = Duration.milliseconds(50)
        let (outcomes, beats, released) = try await withTaskExecutorPreference(pool) {
            let heartbeat = Task(executorPreference: pool) {
                var beats: [ContinuousClock.Instant] = [.now]
                while !Task.isCancelled {
                    try? await Task.sleep(for: period)
                    beats.append(.now)
                }
                return beats
            }
            let waited = try await withThrowingTaskGroup(of: SaveOutcome.self) { group in
                for id in Int64(1)...8 {
                    group.addTask(executorPreference: pool) { try await Self.retitle(id, to: "saved \(id)", in: store) }
                }
                // Long enough for every save to be waiting on the lock, and for
                // the heartbeat to beat many times meanwhile.
                try await Task.sleep(for: .milliseconds(1500))
                #expect(lock.isHeld)
                let released = ContinuousClock.now
                lock.release()
                return (try await group.reduce(into: []) { $0.append($1) }, released)
            }
            heartbeat.cancel()
            return (waited.0, await heartbeat.value, waited.1)
        }
        let beatsWhileLocked = beats.filter { $0 < released }.count
        #expect(outcomes.count == 8)
        #expect(outcomes.filter(\.isSuccess).count == 8, "\(outcomes)")
        #expect(try titles() == (1...8).map { "saved \($0)" })
        // A count, not a time: had the waiting saves blocked the pool's two threads, the
        // heartbeat would have stood still for the whole wait (about 30 beats when nothing
        // blocks; a loaded machine slows it, but not to a standstill).
        #expect(beatsWhileLocked >= 8, "the heartbeat beat \(beatsWhileLocked) times while eight saves waited")
    }

    @Test func cancellingWaitingSavesEndsThemAtOnceAndWritesNothing() async throws {
        // Were cancellation ignored, the saves would wait out this timeout and fail busy.
        let store = try await store(busyTimeout: .seconds(60))
        let first = try await FormSession.open(Self.ticketForm, key: RecordKey("id", 1), backend: store)
        let second = try await FormSession.open(Self.ticketForm, key: RecordKey("id", 2), backend: store)
        try first.set("title", input: "never written")
        try second.set("title", input: "never written either")
        let lock = try HeldWriteLock(path, shell: shell)
        // The first waits in SQLite's busy wait, the second behind it for the writer.
        let waiting = Task { try await first.save() }
        let queued = Task { try await second.save() }
        try await Task.sleep(for: .milliseconds(300))
        waiting.cancel()
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        await #expect(throws: CancellationError.self) { try await queued.value }
        // Both returned while the other process still held the lock.
        #expect(lock.isHeld)
        lock.release()
        #expect(try await Self.retitle(3, to: "written", in: store).isSuccess)
        #expect(try titles().prefix(3) == ["ticket 1", "ticket 2", "written"])
    }

    @Test func aTaskCancelledBeforeItsSaveWritesNothing() async throws {
        let store = try await store()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Self.retitle(4, to: "never written", in: store)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try titles()[3] == "ticket 4")
    }

    struct Ticket: Codable, Equatable {
        var id: Int?
        var title: String
        var status: String
    }

    static let typedForm: Form = {
        var form = Form("ticket", for: Ticket.self) {
            Section {
                Field("Title", \Ticket.title).required()
                Field("Status", \Ticket.status)
            }
        }
        form.table = "tickets"
        return form
    }()

    @Test func theTypedDoorIsAwaitedAndCancellableLikeASession() async throws {
        let store = try await store(busyTimeout: .seconds(60))
        var ticket = try #require(try await store.load(Ticket.self, form: Self.typedForm, key: RecordKey("id", 5)))
        #expect(ticket == Ticket(id: 5, title: "ticket 5", status: "open"))
        ticket.status = "closed"
        #expect(try await store.save(ticket, form: Self.typedForm, key: RecordKey("id", 5))
                == .saved(changed: ["status"], key: RecordKey("id", 5)))
        #expect(try await store.save(ticket, form: Self.typedForm, key: RecordKey("id", 5)) == .unchanged)
        #expect(try await store.load(Ticket.self, form: Self.typedForm, key: RecordKey("id", 99)) == nil)
        #expect(try await store.save(ticket, form: Self.typedForm, key: RecordKey("id", 99)) == .notFound)
        guard case .saved(_, let key) = try await store.save(Ticket(title: "new", status: "open"), form: Self.typedForm) else {
            Issue.record("not inserted"); return
        }
        #expect(try await store.load(Ticket.self, form: Self.typedForm, key: key)?.title == "new")
        guard case .invalid(let errors) = try await store.save(Ticket(title: "", status: "open"), form: Self.typedForm) else {
            Issue.record("an empty title was saved"); return
        }
        #expect(errors.map(\.code) == ["required"])

        // Its write waits for another process's lock off the pool, and a cancel ends the wait.
        let lock = try HeldWriteLock(path, shell: shell)
        let waiting = Task { try await store.save(Ticket(id: 6, title: "never written", status: "open"), form: Self.typedForm,
                                                  key: RecordKey("id", 6)) }
        try await Task.sleep(for: .milliseconds(300))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(lock.isHeld)
        lock.release()
        #expect(try titles()[5] == "ticket 6")
        #expect(try titles()[4] == "ticket 5")
    }

    @Test func queriesImportsAndExportsAreAwaited() async throws {
        let store = try await store()
        let imported = try await store.writeBatch(Self.ticketForm) { batch in
            for id in Int64(9)...10 { try batch.insert(["id": .int(id), "title": .text("imported \(id)")]) }
            return 2
        }
        #expect(imported == 2)
        let open = try await store.records(Self.ticketForm, where: [RecordFilter(field: "status", value: "open")], limit: 3)
        #expect(open.map(\.key) == (1...3).map { RecordKey("id", .int(Int64($0))) })
        let exported = Exported()
        try await store.forEachRecord(Self.ticketForm) { record in
            if case .text(let title)? = record.values["title"] { exported.append(title) }
        }
        #expect(exported.lines.count == 10)
        #expect(exported.lines.last == "imported 10")
        #expect(try await store.load(Self.ticketForm, key: RecordKey("id", 11)) == nil)
    }
}

/// Lines an export hands over from the store's thread.
private final class Exported: Sendable {
    private let state = Mutex<[String]>([])
    func append(_ line: String) { state.withLock { $0.append(line) } }
    var lines: [String] { state.withLock { $0 } }
}
