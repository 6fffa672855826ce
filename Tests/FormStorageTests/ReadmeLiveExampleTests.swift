import FormCore
import FormStoreTestSupport
import Foundation
import FormStorage
import Testing

/// The README's "Live records" example, compiled and run here; the test fails
/// when the README's block and the lines between the markers differ.
@Suite struct ReadmeLiveExampleTests {
    func example(form: Form, store: FormStore) throws -> [String] {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // LIVE-BEGIN
        let session = try FormSession.open(form, key: RecordKey("id", 7), backend: store)
        session.attribution = ChangeAttribution(actor: "ann", via: .web)     // who the history names

        let commits = try session.watchExternalChanges()  // another process's commit...
        if commits.wait(timeout: .seconds(1)), let change = try session.takeExternalChanges() {
            print(change.changed, change.conflicts)         // ...taken: untouched fields updated, dirty ones flagged
        }
        try session.set("city", input: "Ber")
        try session.set("city", input: "Bergen")          // one step: a run of keystrokes in one field
        try session.undo()                                 // city as loaded; redo() brings "Bergen" back
        for change in try session.history() { print(change.id, change.attribution.actor ?? "-", change.fields) }
        store.historyRetention = .latest(100)              // or .days(90); pruned by each save
        // LIVE-END
        #expect(session.value("city") == "Oslo")
        return printed
    }

    @Test func theLiveExampleIsThisCodeAndRuns() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let region = source.components(separatedBy: "// LIVE-BEGIN\n")[1].components(separatedBy: "        // LIVE-END")[0]
        let code = region.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n")
        let readme = try String(contentsOf: URL(fileURLWithPath: packageRoot).appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + code + "```"), "README.md's live example differs from ReadmeLiveExampleTests")

        let directory = try TemporaryDirectory()
        let path = directory.path("live.sqlite")
        try SQLiteShell().run(database: path, script: """
            PRAGMA journal_mode = WAL;
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, city TEXT);
            INSERT INTO people VALUES (7, 'Ann', 'Oslo');
            """)
        let store = try FormStore(path: path, sidecarDirectory: directory.url.appendingPathComponent("state"))
        try store.initialize()
        var form = Form(name: "person", sections: [Section(fields: [
            Field(key: "name", label: "Name", kind: .text), Field(key: "city", label: "City", kind: .text),
        ])])
        form.table = "people"
        // Another process writes while the example waits for a commit.
        let writer = try SQLiteShell().start(database: path, script: "SELECT 1; UPDATE people SET name = 'Anna' WHERE id = 7;")
        let printed = try example(form: form, store: store)
        writer.waitUntilExit()
        #expect(printed.count <= 1)
        #expect(store.historyRetention == .latest(100))
    }
}
