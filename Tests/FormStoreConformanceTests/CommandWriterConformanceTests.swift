import FormStoreTestSupport
import Foundation
import Testing

/// Four `formstore` processes writing one database at once, on each backend:
/// each inserts its rows and then edits every one of them, while the others do
/// the same. Every command succeeds (a lock is waited for, a serialization
/// failure retried), and the audit afterwards finds every row with its last edit.
@Suite struct CommandWriterConformanceTests {
    static let writers = 4
    static let perWriter = 6

    @Test(arguments: BackendKind.allCases)
    func fourWriterProcessesLoseNothing(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: Self.writers) { writer in
            for step in 0..<Self.perWriter {
                let name = "writer \(writer) row \(step)"
                failures.check(try? runBinary(["--db", backend.location, "new", "people", "name=\(name)",
                                                         "score=\(writer)"]))
                failures.check(try? runBinary(["--db", backend.location, "set", "people",
                                                         Self.id(of: name, in: backend), "email=w\(writer)s\(step)@example.com"]))
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(try backend.count("SELECT count(*) FROM people") == Self.writers * Self.perWriter + 1)
        for writer in 0..<Self.writers {
            for step in 0..<Self.perWriter {
                let row = try backend.row("SELECT email, score FROM people WHERE name = 'writer \(writer) row \(step)'")
                #expect(row?[0] == "w\(writer)s\(step)@example.com", "\(kind) writer \(writer) row \(step)")
                #expect(row?[1].flatMap(Double.init) == Double(writer))
            }
        }
    }

    /// The key of the row named `name`, as another client reads it.
    private static func id(of name: String, in backend: TestBackend) -> String {
        ((try? backend.row("SELECT id FROM people WHERE name = '\(name)'")) ?? nil)?.first.flatMap { $0 } ?? "none"
    }

    /// The runs that did not succeed, from every writer.
    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var all: [String] = []

        func check(_ run: BinaryRun?) {
            guard let run, run.code == 0 else {
                lock.lock()
                all.append(run?.description ?? "did not run")
                lock.unlock()
                return
            }
        }
    }
}
