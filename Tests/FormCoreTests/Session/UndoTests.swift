import Foundation
import Testing
@testable import FormCore

/// Undo and redo: a run of keystrokes in one field is one step; undoing a
/// save is a new save of the previous values, checked for conflicts.
@Suite struct UndoTests {
    func open(_ backend: MemoryBackend = profileBackend()) throws -> FormSession {
        try FormSession.open(profileForm(), key: RecordKey("id", 1), backend: backend)
    }

    @Test func aTypingRunIsOneStep() throws {
        let session = try open()
        var events: [SessionEvent] = []
        let observation = session.observe { events.append($0) }
        for typed in ["B", "Be", "Bet", "Beth"] { try session.set("firstName", input: typed) }
        try session.set("lastName", input: "Ng")
        #expect(session.canUndo)
        try session.undo()
        #expect(session.text("lastName") == "Lee")
        #expect(session.text("firstName") == "Beth")
        try session.undo()
        #expect(session.text("firstName") == "Ann")
        #expect(!session.isDirty)
        #expect(!session.canUndo)
        #expect(events.contains(.undone(fields: ["firstName"])))
        try session.redo()
        #expect(session.text("firstName") == "Beth")
        try session.redo()
        #expect(session.text("lastName") == "Ng")
        #expect(!session.canRedo)
        #expect(events.contains(.redone(fields: ["lastName"])))
        observation.cancel()
    }

    @Test func committingAFieldEndsItsRun() throws {
        let session = try open()
        try session.set("firstName", input: "Bo")
        session.commit("firstName")
        try session.set("firstName", input: "Bob")
        try session.undo()
        #expect(session.text("firstName") == "Bo")
    }

    @Test func typingAFieldBackToWhereItsRunBeganLeavesNoStep() throws {
        let session = try open()
        try session.set("lastName", input: "Ng")
        session.commit("lastName")
        try session.set("firstName", input: "Annie")
        try session.set("firstName", input: "Ann")
        #expect(session.undoFields == ["lastName"])
        try session.set("firstName", input: "Bea")
        #expect(session.undoFields == ["firstName"])
        try session.undo()
        #expect(session.text("firstName") == "Ann")
        #expect(session.undoFields == ["lastName"])
    }

    @Test func editsOfManyFieldsKeepTheLastHundredSteps() throws {
        let session = try open()
        for round in 1...60 {
            try session.set("firstName", input: "Ann \(round)")
            try session.set("lastName", input: "Lee \(round)")
        }
        var undone = 0
        while session.canUndo {
            try session.undo()
            undone += 1
        }
        #expect(undone == 100)
        #expect(session.text("firstName") == "Ann 10")
        #expect(session.text("lastName") == "Lee 10")
    }

    @Test func stepsPastTheLimitUndoneAndRedoneStayInOrder() throws {
        let session = try open()
        // Each edit another field than the one before: 120 steps, the last 100 kept.
        for round in 1...120 {
            try session.set(round.isMultiple(of: 2) ? "firstName" : "lastName", input: "v\(round)")
        }
        _ = try session.undo()
        _ = try session.undo()
        _ = try session.redo()
        var undone = 0
        while session.canUndo {
            _ = try session.undo()
            undone += 1
        }
        #expect(undone == 99)
        #expect(session.text("firstName") == "v20")
        #expect(session.text("lastName") == "v19")
    }

    @Test func undoBringsBackInputThatDidNotParseWithItsError() throws {
        let session = try open()
        try session.set("newsletter", input: "perhaps")
        #expect(!session.errors("newsletter").isEmpty)
        session.commit("newsletter")
        try session.set("newsletter", input: "yes")
        #expect(session.errors("newsletter").isEmpty)
        try session.undo()
        #expect(session.text("newsletter") == "perhaps")
        #expect(!session.errors("newsletter").isEmpty)
        try session.undo()
        #expect(session.value("newsletter") == .bool(false))
        #expect(session.errors("newsletter").isEmpty)
        try session.redo()
        #expect(session.text("newsletter") == "perhaps")
    }

    @Test func aNewEditClearsWhatCouldBeRedone() throws {
        let session = try open()
        try session.set("firstName", input: "Bo")
        try session.undo()
        try session.set("lastName", input: "Ng")
        #expect(!session.canRedo)
        #expect(throws: SessionError.self) { try session.redo() }
    }

    @Test func undoingASaveSavesThePreviousValues() throws {
        let backend = profileBackend()
        let session = try open(backend)
        try session.set("firstName", input: "Beth")
        try session.set("lastName", input: "Ng")
        #expect(try session.save() == .saved(changed: ["firstName", "lastName"], key: RecordKey("id", 1)))
        #expect(session.undoSaves)
        #expect(session.undoFields == ["firstName", "lastName"])
        let undone = try session.undo()
        #expect(undone == .saved(changed: ["firstName", "lastName"], key: RecordKey("id", 1)))
        #expect(try backend.load(profileForm(), key: RecordKey("id", 1))?.values["firstName"] == "Ann")
        #expect(session.text("lastName") == "Lee")
        #expect(!session.isDirty)
        // The edits went into the save: nothing else is left to undo.
        #expect(!session.canUndo)
        #expect(try session.redo() == .saved(changed: ["firstName", "lastName"], key: RecordKey("id", 1)))
        #expect(try backend.load(profileForm(), key: RecordKey("id", 1))?.values["lastName"] == "Ng")
    }

    @Test func undoingASaveSomeoneElseOverwroteIsAConflict() throws {
        let backend = profileBackend()
        let session = try open(backend)
        try session.set("firstName", input: "Beth")
        _ = try session.save()
        let other = try open(backend)
        try other.set("firstName", input: "Cy")
        _ = try other.save()
        guard case .conflict(let conflicts) = try session.undo() else {
            Issue.record("the undo overwrote someone else's save")
            return
        }
        #expect(conflicts == [FieldConflict(field: "firstName", base: "Beth", mine: "Ann", theirs: "Cy")])
        #expect(try backend.load(profileForm(), key: RecordKey("id", 1))?.values["firstName"] == "Cy")
        #expect(session.canUndo)
    }

    @Test func undoingASaveToAValueNowInvalidIsRefused() throws {
        let backend = MemoryBackend(keyColumns: ["id"])
        backend.put(["id": 1, "firstName": "", "lastName": "Lee", "newsletter": false])
        let session = try open(backend)
        try session.set("firstName", input: "Ann")
        _ = try session.save()
        guard case .invalid = try session.undo() else {
            Issue.record("a required field was saved empty by an undo")
            return
        }
        #expect(session.text("firstName") == "Ann")
        #expect(try backend.load(profileForm(), key: RecordKey("id", 1))?.values["firstName"] == "Ann")
    }

    @Test func aLongSessionKeepsTheLastHundredSteps() throws {
        let session = try open()
        for round in 1...150 {
            try session.set("firstName", input: "Ann \(round)")
            _ = try session.save()
        }
        var undone = 0
        while session.canUndo, try session.undo() == .saved(changed: ["firstName"], key: RecordKey("id", 1)) { undone += 1 }
        #expect(undone == 100)
        #expect(session.text("firstName") == "Ann 50")
    }
}
