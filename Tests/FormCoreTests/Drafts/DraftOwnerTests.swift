import FormStoreTestSupport
import Foundation
import Testing
@testable import FormCore

/// Drafts per person over any draft store (the protocol's own owner filter),
/// the draft policies, and a save through one store deleting the draft in another.
@Suite struct DraftOwnerTests {
    let key = RecordKey("id", 1)

    func leaveDraft(_ backend: MemoryBackend, owner: String?, lastName: String) throws {
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                           owner: owner, autosave: testAutosave())
        try session.set("lastName", input: lastName)
        session.close()
    }

    @Test func eachOwnerIsOfferedTheirOwnDraftsOnly() throws {
        let backend = profileBackend()
        try leaveDraft(backend, owner: "ann", lastName: "Park")
        try leaveDraft(backend, owner: "bob", lastName: "Bloggs")
        try leaveDraft(backend, owner: nil, lastName: "Nobody")
        for (owner, lastName) in [("ann", "Park"), ("bob", "Bloggs"), (nil, "Nobody")] as [(String?, FieldValue)] {
            let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                               owner: owner, autosave: testAutosave())
            #expect(session.offeredDrafts.map { $0.values["lastName"] } == [lastName])
            #expect(session.offeredDrafts.map(\.owner) == [owner])
        }
        let carol = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                         owner: "carol", autosave: testAutosave())
        #expect(carol.offeredDrafts.isEmpty)
        #expect(try backend.drafts(form: nil, owner: "ann").count == 1)
    }

    @Test func aOneShotSessionKeepsNoDraftOfARefusedSave() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                           owner: "ann", draftPolicy: .none, autosave: testAutosave())
        try session.set("lastName", input: "Park")
        try session.set("firstName", input: "")
        guard case .invalid = try session.save() else {
            Issue.record("a missing first name was accepted")
            return
        }
        session.close()
        #expect(try backend.drafts(form: nil).isEmpty)
    }

    @Test func aSaveDeletesTheDraftFromTheDraftStoreItIsIn() throws {
        let directory = try TemporaryDirectory()
        let files = FileDraftStore(directory: directory.url)
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: files,
                                           owner: "ann", autosave: testAutosave())
        try session.set("lastName", input: "Park")
        session.close()
        #expect(try files.drafts(form: "profile", key: key, owner: "ann").count == 1)
        #expect(try session.save().isSuccess)
        #expect(try files.drafts(form: nil).isEmpty)
        #expect(backend.record(key)?.values["lastName"] == "Park")
    }
}
