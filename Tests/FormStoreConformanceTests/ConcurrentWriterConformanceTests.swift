import FormCore
import Foundation
import Testing

/// Writers at once through one store, as a service's tasks: each inserts
/// rows and edits them again while the others do the same; nothing is lost,
/// every row holds its writer's last edit.
@Suite struct ConcurrentWriterConformanceTests {
    static let writers = 4
    static let perWriter = 15

    @Test(arguments: BackendKind.allCases)
    func fourWritersLoseNothing(_ kind: BackendKind) async throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let form = People.form(versionColumn: "version")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    for step in 0..<Self.perWriter {
                        let new = FormSession.new(form, backend: backend.store)
                        try new.set("name", input: "writer \(writer) row \(step)")
                        #expect(try await new.save().isSuccess)
                        let key = try #require(new.key)
                        let again = try await FormSession.open(form, key: key, backend: backend.store)
                        try again.set("score", value: .double(Double(writer * 100 + step)))
                        #expect(try await again.save().isSuccess)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try backend.count("SELECT count(*) FROM people") == Self.writers * Self.perWriter + 1)
        for writer in 0..<Self.writers {
            for step in [0, Self.perWriter - 1] {
                let row = try backend.row("SELECT score, version FROM people WHERE name = 'writer \(writer) row \(step)'")
                #expect(row?[0].flatMap(Double.init) == Double(writer * 100 + step))
                #expect(row?[1] == "2")
            }
        }
    }
}
