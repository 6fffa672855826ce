import FormCore
import FormStoreTestSupport
import Foundation
import Synchronization
import Testing
import FormStorage

/// Drafts per person, as a service keeps them: each user's drafts of a shared
/// record are theirs alone; a one-shot request leaves none behind; a save
/// deletes the draft wherever it is kept.
@Suite struct DraftOwnerTests {
    let directory: TemporaryDirectory
    let store: FormStore
    let form: Form

    init() throws {
        directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite")
        try SQLiteShell().run(database: path, script: """
            CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);
            INSERT INTO notes VALUES (1, 'Groceries', 'milk'), (2, 'Trip', NULL);
            """)
        store = try FormStore(path: path, sidecarDirectory: directory.url.appendingPathComponent("state"))
        var title = Field(key: "title", label: "Title", kind: .text)
        title.isRequired = true
        var form = Form(name: "note", sections: [Section(fields: [title, Field(key: "body", label: "Body", kind: .text)])])
        form.table = "notes"
        self.form = form
    }

    /// Autosaves only to the given store (never to the user's state folder).
    var policy: DraftAutosaver.Policy { DraftAutosaver.Policy(interval: .zero, fallback: nil) }

    func leaveDraft(of owner: String?, body: String) throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store,
                                           owner: owner, autosave: policy)
        try session.set("body", input: body)
        session.close()
    }

    @Test func draftsOfTwoOwnersNeverCross() async throws {
        try leaveDraft(of: "ann", body: "ann's milk")
        try leaveDraft(of: "bob", body: "bob's milk")
        let ann = try await FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store, owner: "ann", autosave: policy)
        #expect(ann.offeredDrafts.map(\.values) == [["body": "ann's milk"]])
        #expect(ann.offeredDrafts.map(\.owner) == ["ann"])
        let bob = try await FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store, owner: "bob",
                                             autosave: policy)
        #expect(bob.offeredDrafts.map(\.values) == [["body": "bob's milk"]])
        let carol = try await FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store, owner: "carol", autosave: policy)
        #expect(carol.offeredDrafts.isEmpty)
        let nobody = try await FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store, autosave: policy)
        #expect(nobody.offeredDrafts.isEmpty)
        #expect(try await store.drafts(form: nil, owner: "ann").map(\.owner) == ["ann"])
        #expect(try await store.drafts(form: "note", owner: "bob").count == 1)

        // Ann's save deletes Ann's draft only.
        try ann.restore(ann.offeredDrafts[0])
        #expect(try await ann.save().isSuccess)
        #expect(try store.drafts(form: nil).map(\.owner) == ["bob"])
    }

    @Test func aRejectedOneShotRequestLeavesNoDraft() async throws {
        for _ in 0..<3 {
            let request = try await FormSession.open(form, key: RecordKey("id", 2), backend: store, drafts: store,
                                                     owner: "ann", draftPolicy: .none, autosave: policy)
            try request.set("title", input: "")
            guard case .invalid = try await request.save() else {
                Issue.record("an empty title was accepted")
                return
            }
            await request.close()
        }
        #expect(try store.drafts(form: nil).isEmpty)
        #expect(store.sidecar?.exists == false)
    }

    @Test func keepOnRejectWritesADraftOnlyWhenASaveIsRefused() async throws {
        let session = try await FormSession.open(form, key: RecordKey("id", 2), backend: store, drafts: store,
                                                 owner: "ann", draftPolicy: .keepOnReject, autosave: policy)
        try session.set("body", input: "passport")
        await session.close()
        #expect(try store.drafts(form: nil).isEmpty)
        try session.set("title", input: "")
        guard case .invalid = try await session.save() else {
            Issue.record("an empty title was accepted")
            return
        }
        await session.close()
        #expect(try await store.drafts(form: "note", key: RecordKey("id", 2), owner: "ann").map { Set($0.values.keys) }
                == [["title", "body"]])
        try session.set("title", input: "Trip to Oslo")
        #expect(try await session.save().isSuccess)
        #expect(try store.drafts(form: nil).isEmpty)
    }

    @Test func aSaveDeletesTheDraftKeptInASeparateDraftStore() async throws {
        let files = FileDraftStore(directory: directory.url.appendingPathComponent("drafts-of-ann"))
        for save in [false, true] {
            let session = try await FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: files,
                                               owner: "ann", autosave: policy)
            try session.set("body", input: save ? "oat milk" : "soy milk")
            await session.close()
            #expect(try files.drafts(form: nil).count == 1)
            // The blocking save (the command's) and the async one (a service's) alike.
            let outcome = save ? try await session.save() : try Self.blockingSave(session)
            #expect(outcome.isSuccess)
            #expect(try files.drafts(form: nil).isEmpty)
            let again = try await FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: files,
                                             owner: "ann", autosave: policy)
            #expect(again.offeredDrafts.isEmpty)
        }
        #expect(store.sidecar?.exists == false)
    }

    static func blockingSave(_ session: FormSession) throws -> SaveOutcome {
        try session.save()
    }

    @Test func aCancelDeletesTheDraftKeptInASeparateDraftStore() async throws {
        let files = FileDraftStore(directory: directory.url.appendingPathComponent("drafts-of-bob"))
        let session = try await FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: files,
                                                 owner: "bob", autosave: policy)
        try session.set("body", input: "tea")
        await session.close()
        #expect(try files.drafts(form: nil).count == 1)
        try await session.cancel()
        #expect(try files.drafts(form: nil).isEmpty)
    }
}

/// Drafts kept in the sidecar of a database FormStore did not create leave
/// that database to its other readers: a draft's write took the write lock
/// of every attached file (`BEGIN IMMEDIATE`), and the database, in its
/// rollback journal, refused a reader ("database is locked") while drafts
/// were saved (220 of 300 reads of another process, autosaving every ms).
@Suite struct SidecarDraftLockTests {
    @Test func draftsLeaveTheDatabaseToItsReaders() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("people.sqlite")
        try SQLiteShell().run(database: path, script: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO people VALUES (1, 'Ann');")
        let store = try FormStore(path: path, sidecarDirectory: directory.url.appendingPathComponent("state"))
        var configuration = Configuration()
        configuration.busyTimeout = .zero
        configuration.journalMode = .unchanged
        let reader = try Database(path: path, configuration: configuration)
        let done = Mutex(false)
        let writer = Thread {
            for n in 0..<400 {
                try? store.writeDraft(Draft(id: "d", form: "people", recordKey: RecordKey("id", 1), formVersion: 1,
                                            base: [:], baseVersion: nil, values: ["name": .text("Ann \(n)")], inputs: [:]))
            }
            done.withLock { $0 = true }
        }
        writer.start()
        var reads = 0
        var refused: [String] = []
        while !done.withLock({ $0 }) {
            do { _ = try reader.read { try $0.fetchOne("SELECT count(*) FROM people") } } catch { refused.append("\(error)") }
            reads += 1
        }
        #expect(reads > 0 && refused.isEmpty, "\(refused.count) of \(reads) reads refused: \(refused.first ?? "")")
        #expect(try store.draft(id: "d")?.values["name"] == .text("Ann 399"))
    }
}
