import FormCore
import FormStoreTestSupport
import Foundation
import Synchronization
import Testing
@testable import FormStorage

@Suite struct SQLiteSettingsStoreTests {
    let directory: TemporaryDirectory
    let store: FormStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try FormStore(path: directory.path("settings.sqlite"))
    }

    @Test func typedValuesSurviveReopening() throws {
        let settings = SQLiteSettingsStore(store: store)
        let day = Date(timeIntervalSince1970: 1_700_000_000)
        try settings.set("dark", forKey: "theme")
        try settings.set(14, forKey: "fontSize")
        try settings.set(.date(day), forKey: "since")
        try settings.set(.list(["a", "b"]), forKey: "tags")
        let reopened = SQLiteSettingsStore(store: try FormStore(path: directory.path("settings.sqlite")))
        #expect(reopened.value(forKey: "theme") == "dark")
        #expect(reopened.value(forKey: "fontSize") == .int(14))
        #expect(reopened.value(forKey: "since") == .date(day))
        #expect(reopened.value(forKey: "tags") == .list(["a", "b"]))
        #expect(reopened.keys == ["fontSize", "since", "tags", "theme"])
        reopened.removeValue(forKey: "tags")
        #expect(reopened.value(forKey: "tags") == nil)
    }

    @Test func aSettingsFormSavesThroughASession() throws {
        let form = Form("prefs") {
            Section {
                Field("Theme", key: "theme", kind: .choice).choices(["light", "dark"]).defaultValue("light")
                Field("Font size", key: "fontSize", kind: .integer).range(8...32)
            }
        }.mode(.free)
        let settings = SQLiteSettingsStore(store: store)
        let heard = Mutex<[Set<String>]>([])
        let observation = settings.addObserver { keys in heard.withLock { $0.append(keys) } }
        let binding = try FormBinding(form: form, model: SettingsModel(store: settings, defaultsFrom: form))
        let session = try FormSession.bound(to: binding)
        #expect(session.value("theme") == "light", "the default before anything is stored")
        #expect(try session.set("theme", input: "dark")?.isSuccess == true)
        #expect(settings.value(forKey: "theme") == "dark")
        #expect(try session.set("fontSize", input: "99") == nil)
        #expect(settings.value(forKey: "fontSize") == nil, "an invalid value is not saved")
        #expect(heard.withLock { $0 } == [["theme"]])
        observation.cancel()
    }

    @Test func specsKeptInTheDatabaseReadBack() throws {
        let form = Form("prefs", title: "Preferences") {
            Section { Field("Theme", key: "theme") }
        }
        try store.storeSpec(of: form)
        let stored = try store.storedSpecs()
        #expect(stored.map(\.name) == ["prefs"])
        #expect(try FormSpec.decode(stored[0].spec) == form)
    }
}
