import FormStoreTestSupport
import Foundation
import Testing

/// `formstore history` and `revert` on both backends: a `set` and an
/// `import` each leave a save in the history, by the login name, through the
/// command; a revert puts the value back through a session, and refuses
/// when a later save changed the field again.
@Suite struct CommandHistoryConformanceTests {
    @Test(arguments: BackendKind.allCases)
    func setAndImportAreInTheHistoryAndRevertPutsBack(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let db = ["--db", backend.location]
        #expect(try runBinary(db + ["init"]).code == 0)
        #expect(try runBinary(db + ["set", "people", "1", "email=ann@example.org"]).code == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString).ndjson")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"id": 1, "email": "ann@imported.example"}"#.utf8).write(to: file)
        let imported = try runBinary(db + ["import", "people", file.path])
        #expect(imported.code == 0, "\(kind): \(imported)")

        let history = try runBinary(db + ["history", "people", "1", "--field", "email", "--format", "json"])
        #expect(history.code == 0, "\(kind): \(history)")
        let changes = try #require(try JSONSerialization.jsonObject(with: Data(history.output.utf8)) as? [[String: Any]],
                                   "\(kind): \(history)")
        #expect(changes.count == 2, "\(kind): \(history.output)")
        #expect(history.output.contains("ann@example.org") && history.output.contains("ann@imported.example"))
        #expect(changes.allSatisfy { ($0["via"] as? String) == "command" }, "\(kind): \(history.output)")

        // The first change's field was changed again since: reverting it is a conflict, and writes nothing.
        let first = try #require(changes.first?["change"].map { "\($0)" })
        let refused = try runBinary(db + ["revert", "people", "1", "--change", first])
        #expect(refused.code == 75, "\(kind): \(refused)")
        #expect(try backend.row("SELECT email FROM people WHERE id = 1") == ["ann@imported.example"])
        let last = try #require(changes.last?["change"].map { "\($0)" })
        let reverted = try runBinary(db + ["revert", "people", "1", "--change", last])
        #expect(reverted.code == 0, "\(kind): \(reverted)")
        #expect(try backend.row("SELECT email FROM people WHERE id = 1") == ["ann@example.org"])
    }
}
