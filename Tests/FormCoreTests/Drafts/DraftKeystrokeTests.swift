import Foundation
import Testing
@testable import FormCore

/// A keystroke hands the autosaver only the field it changed; the draft
/// written must still be the session's whole unsaved state, whatever else
/// happened between keystrokes.
@Suite struct DraftKeystrokeTests {
    let key = RecordKey("id", 1)

    /// The draft in the store, after the session's pending one was written.
    func written(_ session: FormSession, _ backend: MemoryBackend) throws -> Draft? {
        session.close()
        return try backend.drafts(form: "profile", key: key).first
    }

    /// The stored draft holds what a snapshot of the session holds now.
    func expectDraftMatches(_ session: FormSession, _ backend: MemoryBackend,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let draft = try written(session, backend)
        let snapshot = session.draftSnapshot
        #expect(draft?.values == snapshot.values, sourceLocation: sourceLocation)
        #expect(draft?.inputs == snapshot.inputs, sourceLocation: sourceLocation)
        #expect(draft?.base == snapshot.base, sourceLocation: sourceLocation)
    }

    @Test func everyKeystrokeOfSeveralFieldsIsInTheDraft() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                           autosave: testAutosave(interval: .seconds(60)))
        for prefix in ["P", "Pa", "Par", "Park"] { try session.set("lastName", input: prefix) }
        try session.set("firstName", input: "Annie")
        try expectDraftMatches(session, backend)
        #expect(try written(session, backend)?.values == ["lastName": "Park", "firstName": "Annie"])
        // More keystrokes after the write change the same draft.
        try session.set("lastName", input: "Parker")
        try expectDraftMatches(session, backend)
        #expect(try backend.drafts(form: "profile", key: key).count == 1)
    }

    @Test func inputThatDoesNotParseAndAValueTypedBackAreKept() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                           autosave: testAutosave(interval: .seconds(60)))
        try session.set("lastName", input: "Park")
        try session.set("newsletter", input: "perhaps")
        try expectDraftMatches(session, backend)
        #expect(try written(session, backend)?.inputs == ["newsletter": "perhaps"])
        // Typed back to what is stored: no longer part of the draft.
        try session.set("lastName", input: "Lee")
        try session.set("newsletter", input: "yes")
        try expectDraftMatches(session, backend)
        #expect(try written(session, backend)?.values == ["newsletter": true])
        // Back to nothing unsaved: the draft is gone.
        try session.set("newsletter", input: "no")
        session.close()
        #expect(try backend.drafts(form: "profile", key: key).isEmpty)
    }

    @Test func anEditByAnObserverBetweenKeystrokesIsInTheDraft() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                           autosave: testAutosave(interval: .seconds(60)))
        try session.set("lastName", input: "P")
        // Whoever hears the last name change fills in the first name too.
        let observation = session.observe { [unowned session] event in
            if event == .valueChanged(field: "lastName"), session.value("firstName") != "Pat" {
                try? session.set("firstName", value: "Pat")
            }
        }
        try session.set("lastName", input: "Pa")
        withExtendedLifetime(observation) {}
        try expectDraftMatches(session, backend)
        #expect(try written(session, backend)?.values == ["lastName": "Pa", "firstName": "Pat"])
    }

    @Test func keystrokesAfterUndoAndAfterASaveStartFromTheirState() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend, drafts: backend,
                                           autosave: testAutosave(interval: .seconds(60)))
        try session.set("lastName", input: "Park")
        try session.set("firstName", input: "Annie")
        _ = try session.undo()
        try session.set("lastName", input: "Parks")
        try expectDraftMatches(session, backend)
        #expect(try session.save().isSuccess)
        #expect(try backend.drafts(form: "profile", key: key).isEmpty)
        try session.set("firstName", input: "Ann-Marie")
        try expectDraftMatches(session, backend)
        #expect(try written(session, backend)?.values == ["firstName": "Ann-Marie"])
        #expect(try written(session, backend)?.base["lastName"] == "Parks")
    }
}
