import Foundation
import Testing
@testable import FormCore

/// Undo and redo awaited: the same steps as the blocking calls, a save step's
/// new save made through the backend's async API.
@Suite struct AsyncUndoTests {
    @Test func aTypingRunIsOneStepAwaited() async throws {
        let session = try await FormSession.open(profileForm(), key: RecordKey("id", 1), backend: profileBackend())
        for typed in ["B", "Be", "Bet", "Beth"] { try session.set("firstName", input: typed) }
        #expect(try await session.undo() == nil)
        #expect(session.text("firstName") == "Ann")
        #expect(!session.isDirty)
        #expect(try await session.redo() == nil)
        #expect(session.text("firstName") == "Beth")
        await #expect(throws: SessionError.self) { try await session.redo() }
    }

    @Test func undoingASaveAwaitedSavesThePreviousValuesAndAConflictKeepsTheStep() async throws {
        let backend = profileBackend()
        let session = try await FormSession.open(profileForm(), key: RecordKey("id", 1), backend: backend)
        var events: [SessionEvent] = []
        let observation = session.observe { events.append($0) }
        try session.set("lastName", input: "Ng")
        #expect(try await session.save().isSuccess)
        #expect(try await session.undo() == .saved(changed: ["lastName"], key: RecordKey("id", 1)))
        #expect(try await backend.load(profileForm(), key: RecordKey("id", 1))?.values["lastName"] == "Lee")
        #expect(events.contains(.undone(fields: ["lastName"])))
        // Someone saves the field; redoing would overwrite them.
        let other = try await FormSession.open(profileForm(), key: RecordKey("id", 1), backend: backend)
        try other.set("lastName", input: "Park")
        #expect(try await other.save().isSuccess)
        guard case .conflict(let conflicts) = try await session.redo() else {
            Issue.record("the redo overwrote someone else's save")
            return
        }
        #expect(conflicts == [FieldConflict(field: "lastName", base: "Lee", mine: "Ng", theirs: "Park")])
        #expect(session.canRedo)
        #expect(try await backend.load(profileForm(), key: RecordKey("id", 1))?.values["lastName"] == "Park")
        observation.cancel()
    }
}
