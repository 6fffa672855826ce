import FormCore
import FoundationEssentials
import Synchronization

/// Hearing writes made through another connection or process: while anyone
/// observes, a `DatabaseFileWatcher` wakes on writes to the file that holds
/// `formstore_settings` (the database or its sidecar); `PRAGMA data_version`
/// on the store's writer connection tells a commit by someone else (it does
/// not move for this store's own writes); the table is then read again and
/// the keys whose values differ from the last reading are reported.
extension SQLiteSettingsStore {
    struct Watching {
        var observers: Set<Int> = []
        var nextObserver = 0
        var watcher: DatabaseFileWatcher?
        var dataVersion: Int64?
        /// Each key's stored JSON at the last reading.
        var snapshot: [String: String] = [:]
    }

    /// Whether the watch for other writers runs (it does while anyone observes).
    public var isWatching: Bool {
        watching.withLock { $0.watcher?.isRunning ?? false }
    }

    /// Registers an observer; starts the watch when it is the first.
    func startWatching() -> Int {
        watching.withLock { state in
            state.nextObserver += 1
            state.observers.insert(state.nextObserver)
            if state.watcher == nil, let path = watchedPath {
                state.dataVersion = dataVersion()
                state.snapshot = storedSettings() ?? [:]
                state.watcher = try? DatabaseFileWatcher(path: path) { [weak self] in self?.heardWrite() }
            }
            return state.nextObserver
        }
    }

    /// Unregisters an observer (once); stops the watch after the last.
    func stopWatching(_ id: Int) {
        watching.withLock { state in
            guard state.observers.remove(id) != nil, state.observers.isEmpty else { return }
            state.watcher?.stop()
            state.watcher = nil
        }
    }

    /// This store wrote `key`: the next reading must not report it again.
    func noteOwnWrite(_ key: String, json: String?) {
        watching.withLock { state in
            guard state.watcher != nil else { return }
            state.snapshot[key] = json
        }
    }

    /// The file a write of settings by someone else touches; `nil` for an
    /// in-memory database, which nobody else can write.
    private var watchedPath: String? {
        FormStore.watchablePath(store.sidecar?.path ?? store.database.path)
    }

    /// The file may have been written: when someone else committed, report
    /// the keys whose values changed.
    private func heardWrite() {
        let version = dataVersion()
        let unchanged = watching.withLock { state in
            guard state.watcher != nil, version == nil || version != state.dataVersion else { return true }
            state.dataVersion = version
            return false
        }
        guard !unchanged, let settings = storedSettings() else { return }
        let changed: Set<String> = watching.withLock { state in
            let keys = Set(settings.keys).union(state.snapshot.keys).filter { settings[$0] != state.snapshot[$0] }
            state.snapshot = settings
            return keys
        }
        if !changed.isEmpty { observers.notify(changed) }
    }

    /// `PRAGMA data_version` of the schema holding the settings, on the
    /// writer: it changes only when another connection committed.
    private func dataVersion() -> Int64? {
        guard (try? store.attachSidecar(creating: false)) == true else { return nil }
        let schema = store.ownSchema
        return try? store.database.writeWithoutTransaction { conn in
            try conn.fetchValue(Int64.self, "PRAGMA \(schema).data_version")
        }
    }

    /// Every stored key and its JSON; `nil` when the table cannot be read.
    private func storedSettings() -> [String: String]? {
        guard (try? store.attachSidecar(creating: false)) == true else { return nil }
        let schema = store.ownSchema
        return try? store.database.read { conn in
            guard try FormStore.ownTableExists("formstore_settings", schema: schema, conn) else { return [:] }
            var settings: [String: String] = [:]
            for row in try conn.cachedStatement("SELECT key, value FROM \(schema).formstore_settings").fetchAll() {
                settings[try row.value(at: 0, as: String.self)] = try row.value(at: 1, as: String.self)
            }
            return settings
        }
    }
}
