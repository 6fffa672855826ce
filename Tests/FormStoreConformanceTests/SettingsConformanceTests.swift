import FormCore
import FormStorage
import FormStoragePostgres
import Foundation
import Synchronization
import Testing

/// Settings behave the same over SQLite and PostgreSQL: typed values by key,
/// kept across stores, observers told of this store's writes.
@Suite struct SettingsConformanceTests {
    func settings(_ backend: TestBackend) -> any SettingsStore {
        if let store = backend.store as? PostgresFormStore { return PostgresSettingsStore(store: store) }
        return SQLiteSettingsStore(store: backend.store as! FormStore)
    }

    @Test(arguments: BackendKind.allCases)
    func valuesComeBackWithTheirTypes(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let settings = settings(backend)
        let when = Date(timeIntervalSince1970: 1_700_000_000.25)
        try settings.set(.text("dark"), forKey: "theme")
        try settings.set(.int(1), forKey: "zoom")
        try settings.set(.date(when), forKey: "since")
        try settings.set(.list(["a", "b"]), forKey: "tags")
        let again = self.settings(backend)
        #expect(again.value(forKey: "theme") == "dark")
        #expect(again.value(forKey: "zoom") == .int(1))
        #expect(again.value(forKey: "since") == .date(when))
        #expect(again.value(forKey: "tags") == .list(["a", "b"]))
        #expect(again.keys == ["since", "tags", "theme", "zoom"])
        again.removeValue(forKey: "zoom")
        #expect(settings.value(forKey: "zoom") == nil)
    }

    @Test(arguments: BackendKind.allCases)
    func observersHearThisStoresWrites(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let settings = settings(backend)
        let heard = Mutex<[Set<String>]>([])
        let observation = settings.addObserver { keys in heard.withLock { $0.append(keys) } }
        try settings.set(.bool(true), forKey: "compact")
        settings.removeValue(forKey: "compact")
        observation.cancel()
        #expect(heard.withLock { $0 }.prefix(2) == [["compact"], ["compact"]])
    }
}
