import FormStoreTestSupport
import Foundation
import Testing

/// Every case of Fixtures/bad/cases.json, run through the built `formstore`
/// against its own copy of the demo database: a one-line error naming what was
/// wrong, the documented exit code, no crash, and the database unchanged (but
/// for a draft, where the input held changes besides the one refused).
@Suite struct BadInputCorpusTests {
    static let folder = packageRoot + "/Fixtures/bad"

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var args: [String]
        var stdin: String?
        var stdinFile: String?
        var env: [String: String]?
        var initialized: Bool?
        var forms: String?
        var exit: Int32
        var stderr: String
        /// The input held changes besides what was refused: they are kept as
        /// a draft (in the database, once `init` ran), and nothing else changes.
        var keepsDraft: Bool?

        var testDescription: String { name }
    }

    private struct Manifest: Decodable {
        var cases: [Case]
    }

    static let cases: [Case] = {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/cases.json"))
            return try JSONDecoder().decode(Manifest.self, from: data).cases
        } catch {
            Issue.record("cannot read Fixtures/bad/cases.json: \(error)")
            return []
        }
    }()

    @Test func theCorpusIsLargeEnough() {
        #expect(Self.cases.count >= 150)
        #expect(Set(Self.cases.map(\.name)).count == Self.cases.count, "case names are unique")
    }

    @Test(arguments: cases)
    func badInputIsRefusedCleanly(_ row: Case) throws {
        let demo = try DemoDatabase()
        if row.initialized == true { try #require(try demo.run(["init"]).code == 0) }
        let before = try demo.dump()
        let expand = { (text: String) in
            text.replacingOccurrences(of: "{bad}", with: Self.folder)
                .replacingOccurrences(of: "{scratch}", with: demo.scratch.path)
        }
        let forms = row.forms.map { Self.folder + "/" + $0 } ?? DemoDatabase.fixtureForms
        let stdin: Data
        if let file = row.stdinFile {
            stdin = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + file))
        } else {
            stdin = Data(Self.expandingLargeValues(row.stdin ?? "").utf8)
        }
        let run = try runBinary(["--db", demo.path, "--forms", forms] + row.args.map(expand), stdinData: stdin,
                                environment: (row.env ?? [:]).mapValues(expand))

        #expect(!run.crashed, "crashed with signal \(run.code): \(run.errors.prefix(500))")
        #expect(run.code == row.exit, "\(run.errors.prefix(500))")
        let first = run.errors.prefix { $0 != "\n" }
        #expect(first.hasPrefix("formstore: ") || first.hasPrefix("Error: "), "\(run.errors.prefix(500))")
        #expect(run.errors.contains(row.stderr), "\(run.errors.prefix(500))")
        // One line, not the input echoed back (some values are 10 MB).
        #expect(first.utf8.count < 600, "\(first.prefix(600))…")
        #expect(run.errors.utf8.count < 4_000, "\(run.errors.prefix(600))…")
        #expect(run.output.isEmpty, "\(run.output.prefix(500))")
        if row.keepsDraft == true {
            let isDraft = { (line: Substring) in line.hasPrefix("INSERT INTO formstore_drafts ") }
            let after = try demo.dump()
            #expect(after.split(separator: "\n").filter { !isDraft($0) } == before.split(separator: "\n"),
                    "the database changed besides the draft")
            #expect(after.split(separator: "\n").filter(isDraft).count == 1, "no draft kept what was typed")
        } else {
            #expect(try demo.dump() == before, "the database changed")
        }
    }

    /// `{10MB}` becomes 10 MB of text, `{10MB-digits}` 10 MB of digits: made
    /// here rather than kept in the repository.
    static func expandingLargeValues(_ text: String) -> String {
        guard text.contains("{10MB") else { return text }
        return text.replacingOccurrences(of: "{10MB-digits}", with: String(repeating: "9", count: 10_000_000))
            .replacingOccurrences(of: "{10MB}", with: String(repeating: "x", count: 10_000_000))
    }
}
