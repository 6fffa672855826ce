import FormCore
import FormStoreTestSupport
import Foundation
import Testing
import FormStorage

// SERVICE-BEGIN
/// A service's edits, owned by an actor: every session is made, used and
/// saved inside it, so no session crosses tasks and nothing is `@unchecked`.
/// SQLite runs on the store's own threads; the actor only awaits it.
actor TicketDesk {
    let store: FormStore
    let form: Form
    /// Edits that last several requests, by edit id.
    private var edits: [String: FormSession] = [:]

    init(store: FormStore, form: Form) {
        self.store = store
        self.form = form
    }

    /// A one-shot request: open, set, save, answer. A refused save keeps no draft.
    func retitle(ticket id: Int64, to title: String, user: String) async throws -> SaveOutcome {
        let session = try await FormSession.open(form, key: RecordKey("id", .int(id)), backend: store,
                                                 drafts: store, owner: user, draftPolicy: .none)
        try session.set("title", input: title)
        return try await session.save()
    }

    /// A longer edit: its draft is autosaved for its owner, and offered to them alone.
    func begin(_ edit: String, ticket id: Int64, user: String) async throws -> [Draft] {
        let session = try await FormSession.open(form, key: RecordKey("id", .int(id)), backend: store,
                                                 drafts: store, owner: user)
        edits[edit] = session
        return session.offeredDrafts
    }

    func set(_ edit: String, _ field: String, to input: String) throws {
        try edits[edit]?.set(field, input: input)
    }

    /// Saves the edit (and deletes its draft in the same transaction).
    func finish(_ edit: String) async throws -> SaveOutcome? {
        guard let session = edits.removeValue(forKey: edit) else { return nil }
        return try await session.save()
    }
}
// SERVICE-END

/// The README's "In a service" pattern, compiled and run.
@Suite struct ServicePatternTests {
    @Test func theReadmeShowsThisPatternAndItRuns() async throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let code = source.components(separatedBy: "// SERVICE-BEGIN\n")[1].components(separatedBy: "// SERVICE-END")[0]
        let readme = try String(contentsOf: URL(fileURLWithPath: packageRoot).appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + code + "```"), "README.md's service example differs from ServicePatternTests")

        let directory = try TemporaryDirectory()
        let path = directory.path("desk.sqlite")
        try SQLiteShell().run(database: path, script: """
            CREATE TABLE tickets (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            INSERT INTO tickets VALUES (1, 'Printer jams'), (2, 'VPN drops');
            """)
        let store = try await FormStore.open(path: path, sidecarDirectory: directory.url.appendingPathComponent("state"))
        var title = Field(key: "title", label: "Title", kind: .text)
        title.isRequired = true
        var form = Form(name: "ticket", sections: [Section(fields: [title])])
        form.table = "tickets"
        let desk = TicketDesk(store: store, form: form)

        // Requests of several users at once.
        let outcomes = try await withThrowingTaskGroup(of: SaveOutcome.self) { group in
            group.addTask { try await desk.retitle(ticket: 1, to: "Printer jams on A4", user: "ann") }
            group.addTask { try await desk.retitle(ticket: 2, to: "", user: "bob") }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter(\.isSuccess).count == 1)
        #expect(try store.drafts(form: nil).isEmpty)

        #expect(try await desk.begin("e1", ticket: 2, user: "ann").isEmpty)
        try await desk.set("e1", "title", to: "VPN drops at noon")
        #expect(try await desk.finish("e1")?.isSuccess == true)
        #expect(try await store.load(form, key: RecordKey("id", 2))?.values["title"] == "VPN drops at noon")
        #expect(try store.drafts(form: nil).isEmpty)
    }

    /// The other way: a session made in one place and sent into the task that uses it.
    @Test func aSessionSentIntoATask() async throws {
        let backend = MemoryBackend()
        backend.put(["id": 1, "title": "Printer jams"])
        var form = Form(name: "ticket", sections: [Section(fields: [Field(key: "title", label: "Title", kind: .text)])])
        form.table = "tickets"
        let session = try await FormSession.open(form, key: RecordKey("id", 1), backend: backend)
        let saving = Task {
            try session.set("title", input: "Printer fixed")
            return try await session.save()
        }
        #expect(try await saving.value.isSuccess)
        #expect(backend.record(RecordKey("id", 1))?.values["title"] == "Printer fixed")
    }
}
