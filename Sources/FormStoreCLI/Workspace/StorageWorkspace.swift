import FormBasics
import FoundationEssentials
import Glibc
import FormCore
import FormStorage
import FormStoragePostgres

/// The workspace over a real database and a folder of specs: a SQLite file
/// (`FormStore`) or, for a `postgres://` URL, PostgreSQL (`PostgresFormStore`),
/// both through `RecordStore`: a command is written once for both.
///
/// Both are opened on first use, so `form SPEC` never opens the database and
/// `init` never reads the specs. A database is created only by commands that
/// may create one (`DatabaseAccess.create`); read commands open it read-only.
/// The file is the user's: only `init` (and `demo`, which makes its own file)
/// adds FormStore's tables to it and switches it to WAL; for any other
/// database, drafts live in a `Sidecar` that `edit` creates when it first
/// keeps one. A command that fails leaves the file exactly as it was.
///
/// Not `Sendable`: one command owns it.
final class StorageWorkspace: Workspace {
    let globals: GlobalOptions
    let access: DatabaseAccess
    /// Runs on the database once it is open (tests limit its size with it).
    private let prepare: ((Database) throws -> Void)?
    /// Where a broken spec of another form is reported (stderr).
    let warnings: (any TextSink)?
    private var openedStore: (any RecordStore)?
    private var loadedCatalog: FormCatalog?
    private var warned = false

    init(globals: GlobalOptions, access: DatabaseAccess, prepare: ((Database) throws -> Void)? = nil,
         warnings: (any TextSink)? = nil) {
        self.globals = globals
        self.access = access
        self.prepare = prepare
        self.warnings = warnings
    }

    var databasePath: String { globals.databasePath }

    // MARK: Opening

    /// The specs of `--forms` (none without a folder).
    func catalog() throws -> FormCatalog {
        if let loadedCatalog { return loadedCatalog }
        let catalog = try globals.formsDirectory.map(FormCatalog.init(directory:)) ?? .empty
        loadedCatalog = catalog
        return catalog
    }

    /// The database, opened as `access` allows.
    ///
    /// - throws: `CLIError.notFound` naming the path when the file is missing
    ///   and this command may not create it; `DatabaseError` or `PostgresError` when it cannot be opened.
    func store() throws -> any RecordStore {
        if let openedStore { return openedStore }
        if GlobalOptions.isPostgresURL(databasePath) {
            let store = try openPostgres()
            openedStore = store
            return store
        }
        return try openSQLite()
    }

    private func openSQLite() throws -> FormStore {
        // The file behind a path or a `file:` URI: one look at it. A FIFO would block the open
        // for ever, a device read as an empty database, and a URI's missing file was exit 74.
        if let file = Connection.file(behind: databasePath) {
            switch Self.fileKind(file) {
            case .missing where !access.createsFile:
                throw CLIError.notFound("no database at \(databasePath) (create one with 'formstore init')")
            case .outOfReach(let reason):
                throw CLIError.storage("cannot open \(databasePath): it is out of reach (\(reason))")
            case .other("a directory"):
                throw CLIError.storage("cannot open \(databasePath): it is a directory")
            case .other(let kind):
                throw CLIError.storage("cannot open \(databasePath): it is not a file but \(kind)")
            case .missing, .file:
                break
            }
        }
        var configuration = Configuration()
        configuration.readOnly = access.isReadOnly
        configuration.busyTimeout = globals.busyTimeout
        configuration.trustsSchema = globals.trustsSchema
        configuration.createsMissingFile = access.createsFile
        // One command, one thread: reads use the one connection.
        configuration.maximumReaderCount = 0
        let database: Database
        do {
            database = try Database(path: Self.readableURI(databasePath, readOnly: access.isReadOnly), configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_PERM && databasePath.hasPrefix("file:")
                    && !access.createsFile {
            // SQLite refuses a URI's mode=rwc without the create flag: say why, not "permission denied".
            throw CLIError.storage("cannot open \(databasePath): its mode asks to create the database, and only "
                                   + "'formstore init' creates one (use mode=rw)")
        }
        try prepare?(database)
        let store = try FormStore(database: database, applyingMigrations: access == .writeWithDrafts)
        store.historyRetention = globals.historyRetention
        if let problem = store.sidecarProblem {
            // FormStore's own file for this database is broken: the database itself is used all the same.
            let remedy = problem is SidecarError ? " (move it away and a new one is made)" : ""
            warnings?.write("formstore: warning: \(CLIError.classifying(problem, databasePath: globals.shownDatabase).message); "
                            + "this command keeps no history or drafts there\(remedy)\n")
        }
        openedStore = store
        return store
    }

    /// A `file:` URI asking `mode=rw`, opened by a command that only reads:
    /// asked `mode=ro`, since SQLite refuses a URI's mode freer than the
    /// open's (a read of `file:app.db?mode=rw` was refused as if it asked to create).
    static func readableURI(_ path: String, readOnly: Bool) -> String {
        guard readOnly, path.hasPrefix("file:"), let query = path.firstIndex(of: "?") else { return path }
        let parameters = path[path.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false)
            .map { $0 == "mode=rw" ? "mode=ro" : String($0) }
        return path[...query] + parameters.joined(separator: "&")
    }

    /// Runs `body`, which may create the database file; when it fails, a file
    /// it created is removed again, so a failed `init` or `migrate` leaves nothing behind.
    /// Whether the database is there already: a server's always is, and so
    /// is anything SQLite opens that is not a plain file path.
    private var databaseExists: Bool {
        GlobalOptions.isPostgresURL(databasePath) || !Connection.isPlainFilePath(databasePath)
            || FileManager.default.fileExists(atPath: databasePath)
    }

    private func creatingDatabase<T>(_ body: () throws -> T) throws -> T {
        let path = databasePath
        let existed = databaseExists
        do {
            return try body()
        } catch {
            if !existed {
                openedStore = nil
                for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            throw error
        }
    }

    // MARK: Schema

    func initialize() throws -> [String] {
        try creatingDatabase {
            // `init` is the user asking: FormStore's tables go into the file, which becomes WAL.
            try store().initializeOwnTables()
        }
    }

    func migrate(directory: String) throws -> [String] {
        // Read the folder first: a missing one must not create the database.
        let migrator = try Migrator(directory: URL(fileURLWithPath: directory))
        _ = try migrator.migrations()
        let existed = databaseExists
        do {
            return try creatingDatabase { try store().migrate(with: migrator) }
        } catch let error as MigrationError where error.kind == .failed && existed && !error.appliedBefore.isEmpty {
            // Each file is its own transaction: those before the failed one stay (a database this run made is removed whole).
            throw CLIError.classifying(error, databasePath: globals.shownDatabase)
                .adding(details: ["applied before it, and kept: \(error.appliedBefore.joined(separator: ", "))"])
        }
    }

    // MARK: Forms

    func formSummaries() throws -> [FormSummary] {
        let catalog = try catalog().adding(storedCatalog())
        warn(catalog)
        let store = try store()
        let specs = catalog.entries.map {
            FormSummary(name: $0.form.name, title: $0.form.title, source: .spec, fieldCount: $0.form.fields.count,
                        table: $0.form.tableName, origin: $0.origin)
        }
        // A spec that parses but does not fit the database (a column its table lacks) fails each of its
        // commands: said here too, where it was listed as if it worked.
        for entry in catalog.entries {
            do {
                if let problem = CompiledForm.of(entry.form).definitionProblem { throw problem }
                _ = try store.keyColumns(of: entry.form)
            } catch where error is FormStoreError || error is PostgresStoreError {
                // On either store: a PostgreSQL spec naming a table the database lacks broke the whole list (exit 66).
                warnings?.write("formstore: warning: \(entry.origin): \(error) (its commands fail)\n")
            } catch let error as FormDefinitionError {
                warnings?.write("formstore: warning: \(entry.origin): \(String(describing: error).singleLine) (its commands fail)\n")
            }
        }
        let views = try store.viewNames()
        // A table whose name a broken spec claims is that spec's (its commands fail): not listed as inferred.
        var claimed: [String: String] = [:]
        for broken in catalog.broken { for name in broken.formNames { claimed[name] = broken.file } }
        // A table whose name a spec takes is reached by that name only through the spec: said so.
        let specNames = Set(catalog.entries.map(\.form.name))
        let tables = try store.tableNames().compactMap { table -> FormSummary? in
            let inferred: Form?
            do {
                inferred = try store.inferredForm(table: table)
            } catch where views.contains(table) {
                // A view is described by compiling its query: one calling a function SQLite here lacks
                // (`sha3()`) broke the whole list. Said, and the others listed.
                let why = CLIError.missingFunction(in: error).map { "it calls " + $0 } ?? CLIError.classifying(error).message
                warnings?.write("formstore: warning: view \(table) is not listed: \(why)\n")
                return nil
            }
            guard let form = inferred else { return nil }
            let origin = claimed[form.name].map { "\($0), broken: its commands fail" }
                ?? (specNames.contains(form.name) ? "inferred, behind the spec of the same name" : "inferred")
            return FormSummary(name: form.name, title: form.title, source: views.contains(table) ? .view : .table,
                               fieldCount: form.fields.count, table: table, origin: origin)
        }
        return specs + tables
    }

    func storedSchema(of form: Form) throws -> String? {
        // SQLite's own text. PostgreSQL keeps none to print, and the form's
        // idea of its table would be SQLite's DDL, which drops its types and constraints.
        if let postgres = try store() as? PostgresFormStore, form.groups.isEmpty,
           try postgres.inferredForm(table: form.tableName) == form {
            throw CLIError.usage("\(form.tableName) is a PostgreSQL table: --format sql writes SQLite's CREATE TABLE, "
                                 + "not its own (pg_dump --schema-only prints that)")
        }
        guard let sqlite = try store() as? FormStore, form.groups.isEmpty,
              try sqlite.inferredForm(table: form.tableName) == form else { return nil }
        let sql = try sqlite.database.read { try $0.tableInfo(form.tableName).sql }
        return sql.isEmpty ? nil : sql + ";\n"
    }

    func unnamedColumnCount(of form: Form) throws -> Int { try store().unnamedColumnCount(of: form) }

    func schemaConstraints(of form: Form) throws -> SchemaConstraints {
        // PostgreSQL's CHECKs as its catalog writes them (its defaults are the fields' own).
        if let postgres = try store() as? PostgresFormStore {
            return SchemaConstraints(checks: try postgres.checkConstraints(of: form.tableName))
        }
        // SQLite's own text.
        guard let sqlite = try store() as? FormStore,
              let table = try sqlite.database.read({ conn in try conn.tableExists(form.tableName) ? try conn.tableInfo(form.tableName) : nil })
        else { return SchemaConstraints() }
        var defaults: [String: String] = [:]
        for column in table.columns { if let sql = column.defaultValueSQL { defaults[column.name] = sql } }
        return SchemaConstraints(defaults: defaults, checks: table.checkConstraints)
    }

    func untypedFields(of form: Form) throws -> Set<String> {
        // A spec is described without a database; where there is none yet, no column is known.
        if !GlobalOptions.isPostgresURL(databasePath) && Connection.isPlainFilePath(databasePath)
            && !FileManager.default.fileExists(atPath: databasePath) { return [] }
        return try store().untypedColumns(of: form)
    }

    /// A spec by name (from the folder, else kept in the database), else any
    /// table of the database (FormStore's own left out), its form inferred.
    func form(named name: String) throws -> Form { try lookUp(name).form }

    /// `form(named:)`, and whether it was inferred from its table (no spec).
    func lookUp(_ name: String) throws -> (form: Form, isInferred: Bool) {
        let folder = try catalog()
        if let form = try folder.form(named: name) {
            warn(folder)
            return (withTableKey(try refusingShadow(form, in: folder)), false)
        }
        let store = try store()
        let catalog = folder.adding(try storedCatalog())
        if let form = try catalog.form(named: name) {
            warn(catalog)
            return (withTableKey(try refusingShadow(form, in: catalog)), false)
        }
        warn(catalog)
        let names = try store.tableNames()
        // Exact first; SQLite itself compares table names without regard to case.
        if let match = names.first(where: { $0 == name })
            ?? names.first(where: { $0.equalsIgnoringCase(name) }),
           let form = try store.inferredForm(table: match) {
            return (form, true)
        }
        let candidates = catalog.names + names
        var message = "no form or table named '\(name)'"
        if let guess = Suggestion.closest(to: name, among: candidates) { message += ". Did you mean '\(guess)'?" }
        throw CLIError.notFound(message)
    }

    /// A spec that names no `primaryKey` with its table's key columns as its
    /// key, as an inferred form has them: `export` writes them and `import`
    /// finds each row by them (an export without its `id` imported back as new
    /// copies), `form` lists them. Without a database (`form SPEC`), as it is.
    private func withTableKey(_ form: Form) -> Form {
        guard form.primaryKey.isEmpty, let columns = try? store().keyColumns(of: form), !columns.isEmpty else { return form }
        var keyed = form
        keyed.primaryKey = columns.map(\.name)
        return keyed
    }

    /// `form`, unless it is a spec that edits a table not named like it without
    /// saying so (`"editsOtherTable": true`): a spec planted in `./forms` or a
    /// database could otherwise show `admins` rows, passwords and all, as
    /// `show users 1`, and `set users 1` would change them (issue 20).
    ///
    /// - throws: `CLIError.validation` naming the spec, where it came from and the table.
    private func refusingShadow(_ form: Form, in catalog: FormCatalog) throws -> Form {
        guard form.tableName != form.name, !form.editsOtherTable else { return form }
        let origin = catalog.entries.first { $0.form.name == form.name }?.origin ?? form.name
        // `form SPEC` works without a database: then no table can be shadowed.
        let shadowed = (try? store().tableNames().contains(form.name)) ?? false
        var message = "spec '\(form.name)' (\(origin)) edits table '\(form.tableName)'"
        if shadowed { message += ", though '\(form.name)' is a table of its own" }
        throw CLIError.validation(message + "; the spec must say \"editsOtherTable\": true if that is meant")
    }

    /// Specs kept in the database (`formstore_forms`), on either backend.
    private func storedCatalog() throws -> FormCatalog {
        let store = try store()
        // SQLite's first: a cast that fails costs the runtime a search (about 0.7 M instructions, docs/binary.md).
        if let sqlite = store as? FormStore { return try FormCatalog(storedIn: sqlite) }
        guard let postgres = store as? PostgresFormStore else { return .empty }
        return try FormCatalog(storedIn: postgres)
    }

    /// One line on stderr per broken spec, once: they break only their own form.
    private func warn(_ catalog: FormCatalog) {
        guard !warned, let warnings else { return }
        warned = true
        for problem in catalog.broken { warnings.write(problem.warning.singleLine + "\n") }
    }

    // MARK: Keys and values

    /// The key as typed, each value converted the way its field (or column) stores it.
    func recordKey(_ key: KeyArgument, of form: Form) throws -> RecordKey {
        let columns = try store().keyColumns(of: form)
        // A view without a spec naming its key: no key finds one of its rows;
        // nor one of a PostgreSQL table without one, nor one of an SQLite table
        // whose columns hide its rowid (found by its rowid otherwise).
        guard !columns.isEmpty else {
            let rowIDHidden = try !GlobalOptions.isPostgresURL(databasePath) && !store().viewNames().contains(form.tableName)
            throw FormStoreError.noPrimaryKey(form.tableName, rowIDHidden: rowIDHidden)
        }
        var recordKey = try key.recordKey(primaryKey: columns.map(\.name)) { column, text in
            keyValue(text, column: column, of: form, keyColumns: columns)
        }
        // A date key is found as stored; typed as `list` shows it (another layout), by the date it reads
        // as, under the key its row is stored by, so that a write reaches that row and no other.
        if columns.contains(where: { form.field($0.name)?.kind.isDateLike == true }) {
            let byDate = try key.recordKey(primaryKey: columns.map(\.name)) { column, text in
                guard let field = form.field(column), field.holdsValue, field.kind.isDateLike,
                      case .success(let value) = field.parseInput(text, in: form), value != .null else {
                    return keyValue(text, column: column, of: form, keyColumns: columns)
                }
                return value
            }
            if byDate != recordKey, try store().load(form, key: recordKey) == nil {
                if let found = try store().load(form, key: byDate) {
                    recordKey = found.key
                } else if let found = try keyOfRow(readingAs: byDate, of: form) {
                    recordKey = found
                }
            }
        }
        // PostgreSQL refuses text for a whole-number key column (`show people abc`) with an error
        // about the type; no record has such a key, as SQLite answers. (SQLite's INTEGER column may hold text.)
        if GlobalOptions.isPostgresURL(databasePath) {
            for (column, value) in zip(recordKey.columns, recordKey.values)
            where value.textValue != nil && columns.first(where: { $0.name == column })?.holdsIntegers == true {
                throw CLIError.notFound("\(form.name): no record with key \(key.text)")
            }
        }
        return recordKey
    }

    /// The stored key of the one row whose key reads as `key` (its dates
    /// compared as dates: a row stored in a layout other than the column's
    /// usual one), found by reading every row's key; nil for none.
    ///
    /// - throws: `CLIError.validation` when several rows read as `key`, each named as stored.
    private func keyOfRow(readingAs key: RecordKey, of form: Form) throws -> RecordKey? {
        var found: [RecordKey] = []
        try store().forEachRecord(form, query: RecordQuery()) { record in
            if zip(key.columns, key.values).allSatisfy({ record.values[$0] == $1 || record.key[$0] == $1 }) { found.append(record.key) }
        }
        guard found.count < 2 else {
            throw CLIError.validation("\(form.name): \(found.count) records have a key reading as \(key.typedText): "
                + found.map { "'\($0.typedText)'" }.joined(separator: ", ") + "; give the key as it is stored")
        }
        return found.first
    }

    /// One typed key value: parsed through its field, or for a key column that
    /// is no field (a spec's `id`, the hidden rowid) by the column's type.
    /// Text that does not parse stays text: it matches no record.
    func keyValue(_ text: String, column: String, of form: Form, keyColumns: [RecordKeyColumn]) -> FieldValue {
        // A date key is found as it is stored (the store keeps such keys so, `TableMapping`):
        // typed as `list` and `export` give it, a number for an epoch or a Julian day.
        if let field = form.field(column), field.holdsValue, field.kind.isDateLike {
            if let integer = Int64(text) { return .int(integer) }
            if let number = Double(text), number.isFinite { return .double(number) }
            return .text(text)
        }
        if let field = form.field(column), field.holdsValue,
           case .success(let value) = field.parseInput(text, in: form), value != .null {
            return value
        }
        let holdsIntegers = keyColumns.first { $0.name == column }?.holdsIntegers ?? true
        if holdsIntegers, let integer = Int64(text) { return .int(integer) }
        return .text(text)
    }

    /// A free-mode form saves each field on its own as it is set; a command
    /// sets several at once and must write all or nothing, so it edits the
    /// form with a save step. Nothing else about the form changes.
    func withSaveStep(_ form: Form) -> Form {
        guard form.mode == .free else { return form }
        var copy = form
        copy.mode = .save
        return copy
    }

    /// Sets inputs on a session in the form's field order, so that conditions
    /// see earlier fields first, each as `FormSession.enter` says (NULL, empty
    /// text, clearing, ISO-8601 dates).
    ///
    /// - throws: `CLIError.usage` for a field the form does not have (with a
    ///   did-you-mean); `SessionError` for one the mode does not let change.
    func apply(_ inputs: [String: FieldInput], to session: FormSession, policy: EmptyInputPolicy) throws {
        let form = session.form
        for key in inputs.keys where form.field(key) == nil {
            throw CLIError.unknownField(key, of: form)
        }
        let order = Dictionary(uniqueKeysWithValues: form.fields.enumerated().map { ($1.key, $0) })
        for key in inputs.keys.sorted(by: { (order[$0] ?? .max, $0) < (order[$1] ?? .max, $1) }) {
            try session.enter(key, inputs[key]!, policy: policy)
        }
    }

}

@available(*, unavailable)
extension StorageWorkspace: Sendable {}

extension StorageWorkspace {
    /// What is at a path.
    enum FileKind: Equatable {
        case missing
        case file
        /// Something else, in words: `a directory`, `a FIFO`.
        case other(String)
        /// There, perhaps, but not to be looked at (a folder that may not be searched): the reason.
        case outOfReach(String)
    }

    static func fileKind(_ path: String) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .outOfReach(String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .other("a directory")
        case S_IFIFO: return .other("a FIFO")
        case S_IFCHR: return .other("a character device")
        case S_IFBLK: return .other("a block device")
        case S_IFSOCK: return .other("a socket")
        default: return .other("no file")
        }
    }
}
