import FormCore
import FormStorage
import FoundationEssentials

/// Builds the demo database from the embedded fixtures (Fixtures/demo.sql,
/// Fixtures/forms/*.json, Fixtures/settings.json): one table with rows per seed
/// form, the specs kept in the database, and the settings store filled in.
enum DemoBuilder {
    static let defaultPath = "formstore-demo.sqlite"
    /// Marks a database as one `formstore demo` made, so running it again may replace it.
    static let marker = "formstore.demo"

    /// The seed forms, in tour order.
    static var forms: [Form] {
        get throws {
            try EmbeddedFixtures.files.keys.filter { $0.hasPrefix("forms/") }.sorted().map(fixtureForm)
        }
    }

    static var settingsForm: Form {
        get throws { try fixtureForm("settings.json") }
    }

    /// Creates the demo at `path`. A demo made earlier is replaced; any other
    /// file is never touched.
    ///
    /// - returns: the open store, and whether an earlier demo was replaced.
    /// - throws: `CLIError.failure` when `path` holds something else.
    static func create(at path: String) throws -> (store: FormStore, replaced: Bool) {
        let replaced = try removeEarlierDemo(at: path)
        let store = try FormStore(path: path)
        let specs = try forms
        let settings = SQLiteSettingsStore(store: store)
        try store.database.write { conn in
            try conn.executeScript(EmbeddedFixtures.files["demo.sql"]!)
            for form in specs { try store.storeSpec(of: form) }
        }
        for field in try settingsForm.fields where field.holdsValue && field.defaultValue != .null {
            try settings.set(field.defaultValue, forKey: field.key)
        }
        try settings.set(.bool(true), forKey: marker)
        return (store, replaced)
    }

    private static func removeEarlierDemo(at path: String) throws -> Bool {
        // A FIFO would block the look inside for ever, as it would any open (`StorageWorkspace.openSQLite`).
        switch StorageWorkspace.fileKind(path) {
        case .missing: return false
        case .file: break
        case .other(let kind): throw CLIError.storage("cannot make the demo at \(path): it is not a file but \(kind)")
        case .outOfReach(let reason): throw CLIError.storage("cannot make the demo at \(path): it is out of reach (\(reason))")
        }
        guard isDemo(path) else {
            throw CLIError.failure("\(path) exists and is not a FormStore demo; it is left as it is (give another PATH)")
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return true
    }

    /// Whether `path` is a database `formstore demo` made (read without
    /// changing it): the demo's marker setting, and exactly the demo's tables,
    /// views, indexes and triggers, as Fixtures/demo.sql creates them. One
    /// settings row is easy to add to any database; a file whose schema is
    /// the demo's holds nothing but demo data.
    private static func isDemo(_ path: String) -> Bool {
        var configuration = Configuration()
        configuration.readOnly = true
        guard let store = try? FormStore(database: Database(path: path, configuration: configuration),
                                         applyingMigrations: false),
              (try? store.database.read({ try $0.tableExists("formstore_settings") })) == true,
              SQLiteSettingsStore(store: store).value(forKey: marker) == .bool(true),
              let found = try? store.database.read({ try demoSchema($0) }),
              let empty = try? Connection(path: ":memory:"),
              (try? empty.executeScript(EmbeddedFixtures.files["demo.sql"]!)) != nil,
              let expected = try? demoSchema(empty) else { return false }
        return found == expected
    }

    /// The schema objects other than FormStore's and SQLite's own, one line each.
    private static func demoSchema(_ conn: Connection) throws -> [String] {
        try conn.fetchAll(
            "SELECT type || ' ' || name || ' ' || tbl_name || ' ' || coalesce(sql, '') FROM sqlite_schema "
                + "WHERE name NOT LIKE 'formstore%' AND name NOT LIKE 'sqlite%' ORDER BY type, name"
        ).map { try $0.value(at: 0, as: String.self) }
    }

    private static func fixtureForm(_ name: String) throws -> Form {
        guard let text = EmbeddedFixtures.files[name] else { throw CLIError.failure("no embedded fixture \(name)") }
        return try FormSpec.decode(Data(text.utf8))
    }
}
