import FormCore
import Foundation
import Testing

/// Undoing a save, awaited, is a new save through the store: checked against
/// what is stored and recorded in the history, the same on both backends.
@Suite struct UndoConformanceTests {
    @Test(arguments: BackendKind.allCases)
    func undoingASaveAwaitedWritesThePreviousValuesAndItsHistory(_ kind: BackendKind) async throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let store = try backend.historyStore()
        let session = try await FormSession.open(People.form(), key: People.ann, backend: store)
        for typed in ["a", "an", "ann@", "ann@park.example"] { try session.set("email", input: typed) }
        #expect(try await session.save().isSuccess)
        #expect(try await session.undo() == .saved(changed: ["email"], key: People.ann))
        #expect(try backend.row("SELECT email FROM people WHERE id = 1") == ["ann@example.com"])
        #expect(try session.history().map { $0.fields.map(\.new) } == [["ann@park.example"], ["ann@example.com"]])
        // Changed underneath since: the redo is refused and writes nothing.
        try backend.otherConnection()("UPDATE people SET email = 'theirs@example.com' WHERE id = 1")
        try await session.reload()
        guard case .conflict = try await session.redo() else {
            Issue.record("the redo overwrote a change made underneath")
            return
        }
        #expect(try backend.row("SELECT email FROM people WHERE id = 1") == ["theirs@example.com"])
    }
}
