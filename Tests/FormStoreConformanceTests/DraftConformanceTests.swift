import FormBasics
import FormCore
import Foundation
import Testing

/// Drafts behave the same over SQLite and PostgreSQL: autosaved while typing,
/// offered to their owner only, restored by a three-way merge, deleted by the save.
@Suite struct DraftConformanceTests {
    let policy = DraftAutosaver.Policy(interval: .zero, fallback: nil)

    func open(_ backend: TestBackend, owner: String?) throws -> FormSession {
        try FormSession.open(People.form(), key: People.ann, backend: backend.store, drafts: backend.store,
                             owner: owner, autosave: policy)
    }

    @Test(arguments: BackendKind.allCases)
    func typingIsAutosavedAndOfferedToItsOwnerOnly(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try open(backend, owner: "ann")
        try session.set("email", input: "draft@example.com")
        try session.set("born", input: "not a date")
        session.close()
        let again = try open(backend, owner: "ann")
        #expect(again.offeredDrafts.count == 1)
        #expect(again.offeredDrafts.first?.values["email"] == "draft@example.com")
        #expect(again.offeredDrafts.first?.inputs["born"] == "not a date")
        #expect(try open(backend, owner: "bob").offeredDrafts.isEmpty)
        #expect(try open(backend, owner: nil).offeredDrafts.isEmpty)
    }

    @Test(arguments: BackendKind.allCases)
    func restoreMergesThreeWays(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try open(backend, owner: "ann")
        try session.set("email", value: "draft@example.com")
        try session.set("name", value: "Draft Name")
        session.close()
        // Meanwhile someone else changes the name (a conflict) and the score (kept).
        try backend.execute("UPDATE people SET name = 'Their Name', score = 7 WHERE id = 1")
        let again = try open(backend, owner: "ann")
        let draft = try #require(again.offeredDrafts.first)
        let restore = try again.restore(draft)
        #expect(restore.restored == ["email"])
        #expect(restore.conflicts == [FieldConflict(field: "name", base: "Ann Lee", mine: "Draft Name", theirs: "Their Name")])
        #expect(again.value("email") == "draft@example.com")
        #expect(again.value("score") == 7.0)
    }

    @Test(arguments: BackendKind.allCases)
    func savingDeletesTheDraftInTheSameTransaction(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try open(backend, owner: "ann")
        try session.set("email", value: "saved@example.com")
        session.close()
        let again = try open(backend, owner: "ann")
        try again.restore(try #require(again.offeredDrafts.first))
        #expect(try again.save().isSuccess)
        #expect(try backend.store.drafts(form: "person", owner: "ann").isEmpty)
        #expect(try backend.row("SELECT email FROM people WHERE id = 1") == ["saved@example.com"])
    }

    @Test(arguments: BackendKind.allCases)
    func cancelDeletesTheDraft(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try open(backend, owner: "ann")
        try session.set("email", value: "gone@example.com")
        try session.cancel()
        #expect(try backend.store.drafts(form: "person").isEmpty)
    }

    @Test(arguments: BackendKind.allCases)
    func aDraftReadBackEqualsTheDraftWritten(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let draft = Draft(id: "d1", form: "person", recordKey: People.ann, formVersion: 1,
                          base: ["name": "Ann Lee", "born": .date(ISO8601.parseDate("1990-04-01")!)], baseVersion: nil,
                          values: ["score": 3.5], inputs: ["born": "31/02"], owner: "ann")
        try backend.store.writeDraft(draft)
        #expect(try backend.store.draft(id: "d1") == draft)
        #expect(try backend.store.drafts(form: "person", key: People.ann, owner: "ann") == [draft])
        #expect(try backend.store.deleteDrafts(updatedBefore: Date().addingTimeInterval(60)) == 1)
        #expect(try backend.store.draft(id: "d1") == nil)
    }
}
