import FormCore
import FormStoreTestSupport
import Foundation
import Testing
import FormStorage

// CHANGES-BEGIN
/// Follows the theme, whoever changes it: this process or another.
func followTheme(_ settings: SQLiteSettingsStore, apply: (FieldValue?) -> Void) async {
    for await keys in settings.changes where keys.contains("theme") {
        apply(settings.value(forKey: "theme"))
    }
}
// CHANGES-END

/// A settings store hears writes made by another process (the sqlite3 shell)
/// through `changes`, and stops watching when its consumer is cancelled.
@Suite struct SQLiteSettingsStoreWatchingTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// An application's database, made by the sqlite3 shell; FormStore keeps
    /// its tables in it (`initialize()`, as `formstore init`) or, left alone, in a sidecar.
    func settings(initialized: Bool) throws -> (SQLiteSettingsStore, settingsFile: String) {
        let path = directory.path("app.sqlite")
        try SQLiteShell().run(database: path, script: """
            PRAGMA journal_mode = WAL;
            CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            """)
        let store = try FormStore(path: path, sidecarDirectory: directory.url.appendingPathComponent("state"))
        if initialized { try store.initialize() }
        let settings = SQLiteSettingsStore(store: store)
        try settings.set("light", forKey: "theme")
        return (settings, store.sidecar?.path ?? path)
    }

    /// What another process writes: a setting as FormStore stores it.
    func writeFromAnotherProcess(_ value: FieldValue, forKey key: String, in file: String) throws {
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        try SQLiteShell().run(database: file, script: """
            INSERT INTO formstore_settings (key, value, updated_at) VALUES ('\(key)', '\(json)', '2026-01-01T00:00:00Z')
              ON CONFLICT (key) DO UPDATE SET value = excluded.value;
            """)
    }

    /// The first `count` elements of `stream`, or fewer when 5 s pass first.
    func first(_ count: Int, of stream: AsyncStream<Set<String>>) async -> [Set<String>] {
        let heard = Task {
            var keys: [Set<String>] = []
            for await element in stream {
                keys.append(element)
                if keys.count == count { break }
            }
            return keys
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(5))
            heard.cancel()
        }
        defer { timeout.cancel() }
        return await heard.value
    }

    @Test(arguments: [true, false])
    func aWriteByAnotherProcessIsHeard(initialized: Bool) async throws {
        let (settings, file) = try settings(initialized: initialized)
        let changes = settings.changes
        try settings.set(.int(14), forKey: "fontSize")
        try writeFromAnotherProcess("dark", forKey: "theme", in: file)
        // Its own write is heard once, then the other process's.
        #expect(await first(2, of: changes) == [["fontSize"], ["theme"]])
        #expect(settings.value(forKey: "theme") == "dark")
    }

    @Test func aBindingOverTheStoreReportsTheChange() async throws {
        let (settings, file) = try settings(initialized: true)
        let form = Form("prefs") {
            Section { Field("Theme", key: "theme", kind: .choice).choices(["light", "dark"]) }
        }.mode(.free)
        let binding = try FormBinding(form: form, model: SettingsModel(store: settings, defaultsFrom: form))
        let changes = binding.changes
        try writeFromAnotherProcess("dark", forKey: "theme", in: file)
        #expect(await first(1, of: changes) == [["theme"]])
        #expect(binding.read()["theme"] == "dark")
    }

    @Test func cancellingTheConsumerStopsTheWatcher() async throws {
        let (settings, _) = try settings(initialized: true)
        #expect(!settings.isWatching)
        let changes = settings.changes
        let consumer = Task { for await _ in changes {} }
        #expect(settings.isWatching)
        consumer.cancel()
        await consumer.value
        // The watcher thread closes its files and ends shortly after.
        var waited = 0
        while settings.isWatching && waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(!settings.isWatching)
    }

    @Test func theReadmeShowsThisLoopAndItFollowsAnotherProcess() async throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let code = source.components(separatedBy: "// CHANGES-BEGIN\n")[1].components(separatedBy: "// CHANGES-END")[0]
        let readme = try String(contentsOf: URL(fileURLWithPath: packageRoot).appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + code + "```"), "README.md's changes example differs from this test")

        let (settings, file) = try settings(initialized: true)
        let (themes, applied) = AsyncStream.makeStream(of: Set<String>.self)
        let follower = Task { await followTheme(settings) { if case .text(let theme)? = $0 { applied.yield([theme]) } } }
        defer { follower.cancel() }
        // The follower observes once its task runs.
        var waited = 0
        while !settings.isWatching && waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        try writeFromAnotherProcess("dark", forKey: "theme", in: file)
        #expect(await first(1, of: themes) == [["dark"]])
    }
}
