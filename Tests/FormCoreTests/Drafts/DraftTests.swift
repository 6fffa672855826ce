import FormStoreTestSupport
import Foundation
import Testing
@testable import FormCore

/// A store that refuses every write, as a read-only database does.
struct RefusingDraftStore: DraftStore {
    /// The database it stands for (`DraftStore.draftScope`).
    var draftScope: String? = "database-a"
    struct ReadOnly: Error, CustomStringConvertible { var description: String { "attempt to write a readonly database" } }
    func writeDraft(_ draft: Draft) throws { throw ReadOnly() }
    func draft(id: String) throws -> Draft? { nil }
    func drafts(form: String, key: RecordKey?) throws -> [Draft] { [] }
    func drafts(form: String?) throws -> [Draft] { [] }
    func deleteDraft(id: String) throws { throw ReadOnly() }
    func deleteDrafts(updatedBefore date: Date) throws -> Int { throw ReadOnly() }
}

@Suite struct DraftTests {
    let key = RecordKey("id", 1)

    func securedForm() -> Form {
        var form = profileForm()
        var pin = Field(key: "pin", label: "PIN", kind: .password)
        pin.isSecure = true
        form.sections[0].fields.append(pin)
        return form
    }

    @Test func typingIsAutosavedAndFlushedOnClose() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                           autosave: testAutosave())
        try session.set("lastName", value: "Park")
        session.close()
        let draft = try #require(try backend.drafts(form: "profile", key: key).first)
        #expect(draft.values == ["lastName": "Park"])
        #expect(draft.base["lastName"] == "Lee")
        #expect(draft.formVersion == 1)
    }

    @Test func writesAreCoalescedWhileTyping() throws {
        final class CountingStore: DraftStore, @unchecked Sendable {
            let inner = MemoryBackend()
            let lock = NSLock()
            var writes = 0
            func writeDraft(_ draft: Draft) throws { lock.withLock { writes += 1 }; try inner.writeDraft(draft) }
            func draft(id: String) throws -> Draft? { try inner.draft(id: id) }
            func drafts(form: String, key: RecordKey?) throws -> [Draft] { try inner.drafts(form: form, key: key) }
            func drafts(form: String?) throws -> [Draft] { try inner.drafts(form: form) }
            func deleteDraft(id: String) throws { try inner.deleteDraft(id: id) }
            func deleteDrafts(updatedBefore date: Date) throws -> Int { try inner.deleteDrafts(updatedBefore: date) }
        }
        let store = CountingStore()
        let session = try FormSession.open(profileForm(), key: key, backend: profileBackend(), drafts: store,
                                           autosave: testAutosave(interval: .seconds(10)))
        for i in 0..<200 { try session.set("lastName", input: "Park\(i)") }
        session.close()
        #expect(store.lock.withLock { store.writes } <= 2, "one write at once, one at close")
        #expect(try store.drafts(form: nil).first?.values["lastName"] == "Park199")
    }

    @Test func secureFieldsNeverReachADraft() throws {
        let backend = profileBackend()
        let session = try FormSession.open(securedForm(), key: key, backend: backend, drafts: backend,
                                           autosave: testAutosave())
        try session.set("pin", input: "s3cret-pin")
        try session.set("lastName", value: "Park")
        session.close()
        let draft = try #require(try backend.drafts(form: nil).first)
        let bytes = String(decoding: try draft.encoded(), as: UTF8.self)
        #expect(!bytes.contains("s3cret-pin"))
        #expect(draft.values["pin"] == nil && draft.base["pin"] == nil)
    }

    @Test func saveAndCancelDeleteTheDraft() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                           autosave: testAutosave())
        try session.set("lastName", value: "Park")
        session.close()
        #expect(try backend.drafts(form: nil).count == 1)
        _ = try session.save()
        #expect(try backend.drafts(form: nil).isEmpty)

        try session.set("lastName", value: "Moss")
        session.close()
        #expect(try backend.drafts(form: nil).count == 1)
        try session.cancel()
        session.close()
        #expect(try backend.drafts(form: nil).isEmpty)
    }

    @Test func typingBackTheStoredValueDropsTheDraft() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                           autosave: testAutosave())
        try session.set("lastName", value: "Park")
        session.close()
        try session.set("lastName", value: "Lee")
        session.close()
        #expect(try backend.drafts(form: nil).isEmpty)
    }

    /// Every merge case of base, draft and stored.
    @Test func restoreIsAThreeWayMergePerField() throws {
        let backend = profileBackend()
        let first = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                         autosave: testAutosave())
        try first.set("firstName", value: "Annie")   // draft only → restored
        try first.set("lastName", value: "Park")     // both changed → conflict
        try first.set("newsletter", value: true)     // both changed to the same → restored
        first.close()
        // Meanwhile the stored record moves on; the draft did not touch id.
        backend.put(["id": 1, "firstName": "Ann", "lastName": "Kim", "newsletter": true])

        let second = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                          autosave: testAutosave())
        let offered = try #require(second.offeredDrafts.first)
        let restore = try second.restore(offered)
        #expect(restore.restored.sorted() == ["firstName", "newsletter"])
        #expect(restore.conflicts == [FieldConflict(field: "lastName", base: "Lee", mine: "Park", theirs: "Kim")])
        #expect(second.value("firstName") == "Annie")
        #expect(second.value("lastName") == "Kim", "a conflict keeps the stored value until the caller chooses")
        #expect(second.offeredDrafts.isEmpty)
        try second.set("lastName", value: "Park")   // the caller chooses
        #expect(try second.save() == .saved(changed: ["firstName", "lastName"], key: key))
    }

    @Test func aDraftIsNeverOverwrittenBeforeItWasOffered() throws {
        let backend = profileBackend()
        let first = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                         autosave: testAutosave())
        try first.set("lastName", value: "Park")
        first.close()
        let second = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                          autosave: testAutosave())
        #expect(second.offeredDrafts.count == 1)
        try second.set("firstName", value: "Bo")
        second.close()
        let drafts = try backend.drafts(form: "profile", key: key)
        #expect(drafts.count == 2)
        #expect(drafts.contains { $0.values == ["lastName": "Park"] })
    }

    @Test func unparsedInputsAreKeptAndRestored() throws {
        var form = profileForm()
        form.sections[0].fields.append(Field(key: "age", label: "Age", kind: .integer))
        let backend = profileBackend()
        let first = try FormSession.open(form, key: key, backend: backend, drafts: backend, autosave: testAutosave())
        first.inputs["age"] = "twelve"   // as a failed parse leaves it
        try first.set("lastName", value: "Park")
        first.close()
        let draft = try #require(try backend.drafts(form: nil).first)
        #expect(draft.inputs == ["age": "twelve"])
        let second = try FormSession.open(form, key: key, backend: backend, drafts: backend, autosave: testAutosave())
        let restore = try second.restore(draft)
        #expect(restore.restored.sorted() == ["age", "lastName"])
        #expect(second.text("age") == "twelve")
        #expect(second.hasUnsavedChanges)
    }

    /// Text a draft kept as typed that reads now (a signal's handler keeps
    /// an editor's lines so) comes back as the value, and a save writes it.
    /// Before, it stayed text beside the stored value, and a save saved nothing.
    @Test func inputsThatParseAreRestoredAsValues() throws {
        var form = profileForm()
        form.sections[0].fields.append(Field(key: "age", label: "Age", kind: .integer))
        let backend = profileBackend()
        let session = try FormSession.open(form, key: key, backend: backend, drafts: backend, autosave: testAutosave())
        var draft = session.draftSnapshot
        draft.inputs = ["lastName": "Park", "age": " 12 "]
        let restore = try session.restore(draft)
        #expect(restore.restored.sorted() == ["age", "lastName"])
        #expect(session.value("lastName") == "Park" && session.value("age") == .int(12))
        #expect(session.inputs.isEmpty && session.dirtyFields.sorted() == ["age", "lastName"])
        guard case .saved = try session.save() else { Issue.record("not saved"); return }
        #expect(backend.record(key)?.values["lastName"] == "Park")
    }

    @Test func newRecordDraftsCanBeListedAndResumed() throws {
        let backend = MemoryBackend(keyColumns: ["id"])
        let session = FormSession.new(profileForm(), backend: backend, drafts: backend, autosave: testAutosave())
        try session.set("firstName", value: "Cy")
        session.close()
        let listed = try backend.drafts(form: "profile", key: nil)
        #expect(listed.count == 1)
        let (resumed, restore) = try FormSession.resume(listed[0], form: profileForm(), backend: backend,
                                                        drafts: backend, autosave: testAutosave())
        #expect(restore.restored == ["firstName"])
        #expect(resumed.value("firstName") == "Cy")
        guard case .saved = try resumed.save() else {
            Issue.record("resumed draft not saved")
            return
        }
        #expect(try backend.drafts(form: nil).isEmpty, "saving the new record deletes its draft")
    }

    @Test func draftsExpire() throws {
        let backend = profileBackend()
        let old = Draft(id: "old", form: "profile", recordKey: key, formVersion: 1, base: [:], baseVersion: nil,
                        values: ["lastName": "Park"], inputs: [:],
                        createdAt: Date(timeIntervalSinceNow: -40 * 86_400),
                        updatedAt: Date(timeIntervalSinceNow: -31 * 86_400))
        try backend.writeDraft(old)
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                           autosave: testAutosave())
        #expect(session.offeredDrafts.isEmpty, "an expired draft is not offered")
        #expect(try backend.draft(id: "old") != nil, "opening only reads")
        try session.set("lastName", value: "Moss")
        session.close()
        #expect(try backend.draft(id: "old") == nil, "the session's first draft write clears expired ones")
        #expect(try backend.drafts(form: "profile").count == 1)
    }

    @Test func aDraftFromAnOlderFormVersionRestoresWhatStillExists() throws {
        let backend = profileBackend()
        let draft = Draft(id: "v1", form: "profile", recordKey: key, formVersion: 1,
                          base: ["lastName": "Lee", "nickname": .null], baseVersion: nil,
                          values: ["lastName": "Park", "nickname": "Al"], inputs: [:])
        try backend.writeDraft(draft)
        var form = profileForm()
        form.version = 2
        let session = try FormSession.open(form, key: key, backend: backend, drafts: backend, autosave: testAutosave())
        let restore = try session.restore(try #require(session.offeredDrafts.first))
        #expect(restore.formVersionChanged)
        #expect(restore.restored == ["lastName"])
        #expect(restore.missingFields == ["nickname"])
    }

    @Test func aDraftTheDatabaseCannotTakeGoesToAPrivateFile() throws {
        let directory = try TemporaryDirectory()
        let files = FileDraftStore(directory: directory.url.appendingPathComponent("formstore"))
        let session = try FormSession.open(profileForm(), key: key, backend: profileBackend(),
                                           drafts: RefusingDraftStore(),
                                           autosave: testAutosave(fallback: files))
        try session.set("lastName", value: "Park")
        session.close()
        let fallback = try #require(session.draftFallback)
        #expect(fallback.reason.contains("readonly"))
        #expect(fallback.location.hasPrefix(files.directory.path))
        let attributes = try FileManager.default.attributesOfItem(atPath: fallback.location)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // Offered like any draft next time, on the same database only: the files hold every database's.
        let next = try FormSession.open(profileForm(), key: key, backend: profileBackend(),
                                        drafts: RefusingDraftStore(), autosave: testAutosave(fallback: files))
        #expect(next.offeredDrafts.map(\.values) == [["lastName": "Park"]])
        #expect(next.offeredDrafts.map(\.database) == ["database-a"])
        let elsewhere = try FormSession.open(profileForm(), key: key, backend: profileBackend(),
                                             drafts: RefusingDraftStore(draftScope: "database-b"),
                                             autosave: testAutosave(fallback: files))
        #expect(elsewhere.offeredDrafts.isEmpty)
    }

    @Test func draftsRoundTripThroughTheirJSONLosslessly() throws {
        let draft = Draft(id: "x", form: "f", recordKey: RecordKey(columns: ["a", "b"], values: [1, "k"]),
                          formVersion: 3, base: ["d": .date(Date(timeIntervalSince1970: 1_700_000_000.25)),
                                                 // Finer than a millisecond (a stored `.123456`): kept to the bit.
                                                 "µ": .date(Date(timeIntervalSince1970: 1_700_000_000.123456)),
                                                 "j": .date(Date(timeIntervalSince1970: 1_704_103_200_123.456 / 1000))],
                          baseVersion: 7,
                          values: ["n": .null, "i": .int(.max), "l": .list(["x", 2]), "b": .data(Data([0, 255])),
                                   "f": .double(0.5), "t": "ü", "y": true,
                                   // JSON holds no infinity: named, where the encoder refused it and no draft was kept.
                                   "inf": .double(.infinity), "-inf": .double(-.infinity)],
                          inputs: ["age": "twelve"], createdAt: Date(timeIntervalSince1970: 1),
                          updatedAt: Date(timeIntervalSince1970: 2))
        let encoded = try draft.encoded()
        #expect(try Draft(encoded: encoded) == draft)
        // A date the millisecond holds is written as its text.
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""d":{"date":"2023-11-14T22:13:20.250Z"}"#))
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""inf":{"double":"Infinity"}"#))
        let nan = Draft(id: "n", form: "f", recordKey: nil, formVersion: 1, base: [:], baseVersion: nil,
                        values: ["x": .double(.nan)], inputs: [:], createdAt: Date(), updatedAt: Date())
        #expect(try Draft(encoded: nan.encoded()).values["x"]?.doubleValue?.isNaN == true)
    }
}
