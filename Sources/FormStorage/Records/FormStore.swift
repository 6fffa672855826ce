public import FormCore
public import FoundationEssentials
import Synchronization

/// Forms over one SQLite database: loads, inserts, updates and deletes records
/// for editing sessions, and keeps their drafts, each write in one
/// `BEGIN IMMEDIATE` transaction. Thread-safe: share one store across the tasks
/// of a service.
///
/// ```swift
/// let store = try FormStore(path: "app.sqlite")
/// let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store)
/// ```
public final class FormStore: FormBackend, DraftStore {
    public let database: Database
    /// SQLite holds no NaN (it stores NULL): the JSON and typed doors refuse one.
    public var holdsNaN: Bool { false }
    private let mappings = FormCache<CachedMapping>()
    /// Where FormStore's own tables are: see `OwnTables`.
    let ownTables: Mutex<OwnTables>
    /// When this store last looked whether another process took the database over
    /// (`attachSidecar`): at most once a second, so a save without a sidecar reads nothing more.
    let takeOverLooked = Mutex<ContinuousClock.Instant?>(nil)
    /// Why the sidecar there is could not be opened (`SidecarError`,
    /// `PrivateDirectoryError`, `MigrationError`); nil when it was, or there
    /// is none. The store then works without FormStore's tables: no history
    /// is kept, and a draft written tries the sidecar again (and fails).
    public var sidecarProblem: (any Error & Sendable)? { openingProblem.withLock { $0 } }
    private let openingProblem = Mutex<(any Error & Sendable)?>(nil)
    /// How long history is kept (`FormStore+History.swift`).
    let retention = Mutex<HistoryRetention>(.forever)
    /// Sessions listening for other writers' commits (`FormStore+Commits.swift`).
    let commitListeners = CommitListeners()

    /// Opens the database at `path` and FormStore's own tables (drafts, kept
    /// specs, settings).
    ///
    /// The file is the user's: a database FormStore creates here (the file did
    /// not exist) gets WAL and FormStore's tables; so does one `initialize()`
    /// was run on (it holds `formstore_migrations`). Any other database is left
    /// as it is, journal mode and schema, and FormStore's tables go to a
    /// `Sidecar` in `sidecarDirectory` (`Sidecar.standardDirectory` when nil),
    /// created by the first draft written.
    ///
    /// - throws: `DatabaseError` when the file cannot be opened or migrated.
    public convenience init(path: String, configuration: Configuration = Configuration(),
                            sidecarDirectory: URL? = nil) throws {
        try self.init(database: Database(path: path, configuration: configuration), sidecarDirectory: sidecarDirectory)
    }

    /// Uses an open database. Where FormStore's tables go is decided as for
    /// `init(path:)`; they are brought up to date unless the database is
    /// read-only or `applyingMigrations` is false.
    ///
    /// Without the migrations the records of the user's tables work as usual;
    /// the drafts need FormStore's tables (`hasDraftTable`). The `formstore`
    /// command opens databases this way so that a command that fails, or only
    /// reads, leaves the file as it was.
    ///
    /// - throws: `DatabaseError` or `MigrationError` when the migrations fail.
    public init(database: Database, applyingMigrations: Bool = true, sidecarDirectory: URL? = nil) throws {
        self.database = database
        let isFormStores = try database.createdFile || database.read { try $0.tableExists(Migrator.formStore.table) }
        if !isFormStores, let sidecar = sidecarDirectory.map({ Sidecar(database: database.path, directory: $0) })
                                          ?? Sidecar(database: database.path, folder: FileDraftStore.standardPath) {
            ownTables = Mutex(.sidecar(sidecar))
            // A sidecar that cannot be used (damaged, on a full disk, in a folder not the user's alone)
            // stops nothing of the user's database: its records are read and saved without FormStore's
            // tables, and the problem is kept for the caller to tell (`sidecarProblem`).
            do {
                try attachSidecar(creating: false, lookingForTakeOver: false)
            } catch {
                openingProblem.withLock { $0 = error }
            }
        } else {
            ownTables = Mutex(.database)
            if applyingMigrations && !database.configuration.readOnly {
                try Migrator.formStore.migrate(database)
            }
        }
    }

    /// How `form` maps to its table: checked once per form version, then cached.
    ///
    /// - throws: `FormDefinitionError` when the form's definition has a mistake;
    ///   `FormStoreError` when the table or one of the form's columns is missing.
    public func mapping(for form: Form) throws -> TableMapping { try cachedMapping(for: form).mapping }

    /// `mapping(for:)` as the cache holds it, by reference.
    func cachedMapping(for form: Form) throws -> CachedMapping {
        if let cached = mappings.value(for: form) { return cached }
        // Checked where the form is first used, so a mistake cannot pass
        // silently; once per form, as the mapping is kept. Not compiled for
        // it: the mapping needs only the form's layout, and a command that
        // reads (`show`) never builds the write pipeline (issue 14).
        if let problem = form.definitionProblems.first { throw problem }
        let mapping = try database.read { conn -> TableMapping in
            guard try conn.tableExists(form.tableName) else { throw FormStoreError.unknownTable(form.tableName) }
            try Self.checkLabelColumns(form, conn)
            return try TableMapping(form: form, table: try conn.tableInfo(form.tableName)).sniffingColumnForms(conn)
        }
        let cached = CachedMapping(mapping)
        mappings.keep(cached, for: form)
        return cached
    }

    /// Every table's info (FormStore's own tables left out).
    public func tables() throws -> [TableInfo] {
        try database.read { conn in try conn.tableNames().map { try conn.tableInfo($0) } }
    }
}

/// A mapping as `FormStore` caches it: handed out by reference, since a
/// `TableMapping` holds some thirty references and copying one out of the
/// cache (and releasing it) per load showed in its profile (issue 14).
final class CachedMapping: Sendable {
    let mapping: TableMapping
    /// Whether the form has repeating groups, found once rather than by a
    /// walk of its sections per load.
    let hasGroups: Bool
    init(_ mapping: TableMapping) {
        self.mapping = mapping
        hasGroups = !mapping.form.groups.isEmpty
    }
}

/// A form's fields, or a table, that do not match the database.
public struct FormStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable { case unknownTable, unknownColumn, noPrimaryKey, badKey, noTextToSearch, missingReference,
        /// A whole number that a column of REAL affinity would store as another (the nearest double).
        inexactNumber,
        /// A field reaching into a JSON column by a path, where the column holds no JSON object to reach into.
        notADocument,
        /// A write a trigger dropped without an error (`RAISE(IGNORE)`).
        ignoredWrite }
    public let reason: Reason
    public let message: String
    /// The field a `missingReference` or an `inexactNumber` is about (its message names it first).
    public var field: String? = nil
    /// The row a `missingReference` looked for and did not find.
    public var reference: MissingReference? = nil
    public var description: String { message }

    static func inexactReal(_ integer: Int64, column: String) -> FormStoreError {
        let nearest = Double(integer)
        let stored = Int64(exactly: nearest).map(String.init) ?? String(nearest)
        return FormStoreError(reason: .inexactNumber,
                              message: "\(column): \(integer) would be stored as \(stored), "
                                  + "the nearest number its REAL column holds", field: column)
    }

    /// The value `column` was given refers to no row: `table` has no row
    /// whose `target` holds it. On either backend, in the same words.
    public static func missingReference(_ column: String, value: FieldValue, table: String, target: String) -> FormStoreError {
        missingReference(columns: [column], values: [value], table: table, targets: [target])
    }

    /// The values a foreign key's `columns` were given refer to no row:
    /// `table` has no row whose `targets` hold them (`a, b: no row of 'p'
    /// has x = 1, y = 2`). The field blamed is the first column.
    public static func missingReference(columns: [String], values: [FieldValue], table: String, targets: [String]) -> FormStoreError {
        let held = zip(targets, values).map { "\($0) = \(RecordKey.text(of: $1))" }.joined(separator: ", ")
        return FormStoreError(reason: .missingReference,
                              message: "\(columns.joined(separator: ", ")): no row of '\(table)' has \(held)", field: columns.first,
                              reference: MissingReference(table: table, columns: targets, values: values))
    }

    /// The row a foreign key refers to: the row of `table` whose `columns` hold `values`.
    public struct MissingReference: Sendable, Hashable {
        public let table: String
        public let columns: [String]
        public let values: [FieldValue]
    }

    /// A JSON path's field set where its column holds text that is no JSON
    /// object (or a member on the path that is no object): written over, the text would be lost.
    public static func notADocument(field: String, column: String) -> FormStoreError {
        FormStoreError(reason: .notADocument, message: "\(field): \(column) holds no JSON object with room for it "
                           + "(its text would be written over): nothing was saved", field: field)
    }

    static func unknownTable(_ table: String) -> FormStoreError {
        FormStoreError(reason: .unknownTable, message: "no table named '\(table)' in the database")
    }

    static func unknownColumn(_ column: String, field: String, form: String, table: String) -> FormStoreError {
        FormStoreError(reason: .unknownColumn,
                       message: "form \(form): field '\(field)' is bound to column '\(column)', which table '\(table)' lacks")
    }

    /// - parameter rowIDHidden: the table's columns take all three names of
    ///   its rowid (`rowid`, `_rowid_`, `oid`), which would else find its rows.
    public static func noPrimaryKey(_ table: String, rowIDHidden: Bool = false) -> FormStoreError {
        let why = rowIDHidden ? " (its columns rowid, _rowid_ and oid hide its rowid)" : ""
        return FormStoreError(reason: .noPrimaryKey,
                              message: "'\(table)' has no primary key to find records by\(why): list and export "
                                  + "read it; a spec may name key columns as primaryKey")
    }

    public static func unknownLabelColumn(_ column: String, field: String, form: String, table: String) -> FormStoreError {
        FormStoreError(reason: .unknownColumn,
                       message: "form \(form): field '\(field)' shows its rows by labelColumn '\(column)', which table '\(table)' lacks")
    }

    public static func labelColumnWithoutReference(field: String, form: String, table: String) -> FormStoreError {
        FormStoreError(reason: .unknownColumn,
                       message: "form \(form): field '\(field)' names a labelColumn, but it is no single-column foreign key of '\(table)'")
    }

    static func keyNotUnique(_ key: [String], form: String, table: String) -> FormStoreError {
        FormStoreError(reason: .badKey, message: "form \(form): its primary key (\(key.joined(separator: ", "))) "
            + "is neither the primary key of '\(table)' nor a UNIQUE index of it, so it may name several rows")
    }

    /// A write that would have changed other than exactly one row; it was rolled back.
    static func notOneRow(_ count: Int, table: String) -> FormStoreError {
        FormStoreError(reason: .badKey, message: "the key names \(count) rows of '\(table)', not one: nothing was written")
    }

    /// A write a trigger dropped without an error (`RAISE(IGNORE)`); the transaction was rolled back.
    static func ignored(_ write: String, of mapping: TableMapping) -> FormStoreError {
        if mapping.table.isView {
            return FormStoreError(reason: .ignoredWrite, message: "the INSTEAD OF trigger of view '\(mapping.table.name)' "
                                      + "did not carry out the \(write): nothing was written")
        }
        return FormStoreError(reason: .ignoredWrite, message: "a trigger on '\(mapping.table.name)' ignored the \(write) "
                                  + "(RAISE(IGNORE)): nothing was written")
    }

    static func badKey(_ message: String) -> FormStoreError {
        FormStoreError(reason: .badKey, message: message)
    }

    static func noTextToSearch(form: String) -> FormStoreError {
        FormStoreError(reason: .noTextToSearch, message: "form \(form) has no text fields to search")
    }
}
