public import FormCore
import FormStorage
import FoundationEssentials
import Synchronization

/// Forms over one PostgreSQL database: what `FormStore` is for SQLite, for
/// services that run on more than one host. Loads, inserts, updates and
/// deletes records for editing sessions and keeps their drafts; each write is
/// one transaction, its conflict check made inside it on the row locked with
/// `SELECT … FOR UPDATE`. Thread-safe: share one store across a service's tasks.
///
/// ```swift
/// let store = try PostgresFormStore(url: "postgres://app@db.internal/app?sslmode=verify-full")
/// let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store)
/// ```
public final class PostgresFormStore: FormBackend, DraftStore {
    public let pool: PostgresPool
    private let mappings = FormCache<PostgresTableMapping>()
    /// How long history is kept (`PostgresFormStore+History.swift`).
    let retention = Mutex(HistoryRetention.forever)
    /// Whether `formstore_changes` exists (nil: not asked yet; a store opened without its migrations may lack it).
    let historyTable = Mutex<Bool?>(nil)
    /// Whether saves record history (`PostgresFormStore+History.swift`).
    let historyEnabled = Mutex(true)
    /// Each form's child mappings by form name, with the form they were made for (`PostgresFormStore+Groups.swift`).
    let childMappingCache = Mutex<[String: (form: Form, children: [PostgresChildMapping])]>([:])
    /// Tables and constraints read once for pickers and child tables (`PostgresCatalogCache`).
    let catalog = PostgresCatalogCache()
    /// The listeners for commits by others (`PostgresFormStore+Watching.swift`).
    let commitListeners = PostgresCommitListeners()

    /// Connects (a pool of up to `maxConnections`) and brings FormStore's own
    /// tables (`formstore_*`: drafts, kept specs, settings) up to date.
    ///
    /// - throws: `PostgresError` when the server cannot be reached; `MigrationError`.
    public convenience init(url: String, maxConnections: Int = 4) throws {
        try self.init(pool: PostgresPool(url: url, maxConnections: maxConnections))
    }

    /// Uses an open pool; FormStore's tables are brought up to date unless
    /// `applyingMigrations` is false.
    public init(pool: PostgresPool, applyingMigrations: Bool = true) throws {
        self.pool = pool
        if applyingMigrations { try PostgresMigrator.formStore.migrate(pool) }
    }

    /// How `form` maps to its table: read from `pg_catalog` once per form version, then cached.
    ///
    /// - throws: `FormDefinitionError`; `PostgresStoreError` when the table or a column is missing.
    func mapping(for form: Form) throws -> PostgresTableMapping {
        if let cached = mappings.value(for: form) { return cached }
        try form.checkDefinition()
        let table = try pool.read { try $0.table(form.tableName) }
        guard let table else { throw PostgresStoreError.unknownTable(form.tableName) }
        let mapping = try PostgresTableMapping(form: form, table: table)
        mappings.keep(mapping, for: form)
        try installNotifyTriggerIfWatching(mapping.table)
        return mapping
    }

    /// A table's columns, keys and types as `pg_catalog` has them; nil when there is none.
    public func table(_ name: String) throws -> PostgresTable? {
        try pool.read { try $0.table(name) }
    }

    /// The tables and views a form can be bound to (FormStore's own left out).
    public func tableNames() throws -> [String] {
        try pool.read { try $0.tableNames() }
    }

    public func viewNames() throws -> Set<String> {
        try pool.read { try $0.tableNames(kinds: "'v'") }.reduce(into: []) { $0.insert($1) }
    }
}
