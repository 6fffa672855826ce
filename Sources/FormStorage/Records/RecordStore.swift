public import FormCore
public import FoundationEssentials

/// What the `formstore` command and server need from a database, whichever
/// it is: records, their history and drafts for sessions (`HistoryBackend`,
/// `DraftStore`), the tables to infer forms from (with their child tables),
/// who refers to a table, queries for `list` and `export`, a batch for
/// `import`, foreign keys as pickers (`ReferencePicking`), and FormStore's own tables. `FormStore` (SQLite) and
/// `PostgresFormStore` both provide it, so a command is written once.
///
/// ```swift
/// let store: any RecordStore = try FormStore(path: "app.sqlite")
/// for name in try store.tableNames() { print(name, try store.inferredForm(table: name)?.fields.count ?? 0) }
/// ```
public protocol RecordStore: HistoryBackend, DraftStore, ReferencePicking {
    /// Tables and views a form can be bound to, FormStore's own left out.
    func tableNames() throws -> [String]
    /// Which of `tableNames()` are views (`forms` says so).
    func viewNames() throws -> Set<String>
    /// The form inferred from the table named exactly `table`; nil when there is none.
    func inferredForm(table: String) throws -> Form?
    /// `form`, inferred from its table, with each date field whose column
    /// holds no value yet (an empty table, a column of NULLs) made a text
    /// field when the values `incoming(group, key)` gives (a group's row
    /// field's with its group) hold one only a text field keeps: what inference does with a table's stored dates, done
    /// with the rows an import brings (an export's `12/31/1999`, written into
    /// an empty copy of its table). A store whose date columns are typed
    /// returns `form` as it is.
    func readingDates(of form: Form, asIn incoming: (RowGroup?, String) throws -> [DatabaseValue]) throws -> Form
    /// The form inferred from `table` with a repeating group for each table
    /// whose one foreign key refers to it; nil when there is no such table.
    func inferredFormWithChildren(table: String) throws -> Form?
    /// The tables `inferredFormWithChildren` leaves out because they refer
    /// to `table` by several foreign keys (which one is meant is a spec's to
    /// say), each as `friendship (by a; by b)`.
    func childTablesLeftOut(of table: String) throws -> [String]
    /// The columns whose foreign keys point at `table` under no `ON DELETE`
    /// rule, as `orders.customer` (`t.(a, b)` for a composite key): who must
    /// change before a row of `table` can go.
    func referrers(of table: String) throws -> [String]
    /// `referrers(of:)` of `form`'s table, only the keys under which some
    /// other row refers to the record with `key` (what holds that record
    /// back; its reference to itself goes with it, as the database deletes it).
    func referrers(of form: Form, key: RecordKey) throws -> [String]
    /// What deleting the record with `key` does to the rows that refer to it
    /// by a foreign key declared `ON DELETE CASCADE`, `SET NULL` or `SET
    /// DEFAULT` (rows that refer to it under another rule refuse the delete).
    func deleteEffects(of form: Form, key: RecordKey) throws -> [DeleteEffect]
    /// The keys (`pl.track_id`) under which rows that stay refer to rows the
    /// delete of the record with `key` cascades to: what refuses it further
    /// down, where no row refers to the record itself (`referrers(of:key:)`).
    func referrersOfCascadedRows(of form: Form, key: RecordKey) throws -> [String]
    /// `DeleteEffect.walk` of the delete of the record with `key`, over the
    /// store's foreign keys and rows: what `deleteEffects(of:key:)` and
    /// `referrersOfCascadedRows(of:key:)` read.
    func walkDelete(of form: Form, key: RecordKey, holdingBack: ((DeleteEffect.Referrer) -> Void)?) throws -> [DeleteEffect]
    /// The columns `form`'s records are found by, in key order.
    func keyColumns(of form: Form) throws -> [RecordKeyColumn]
    /// Columns whose "nothing" is empty text rather than NULL (`NOT NULL`, `DEFAULT ''`).
    func emptyTextColumns(of form: Form) throws -> Set<String>
    /// Columns of `form`'s table declared with no type, which hold any value
    /// as given (SQLite's; a PostgreSQL column always has a type). Empty when
    /// the table is not there. A group's row fields are named `group.field`.
    func untypedColumns(of form: Form) throws -> Set<String>
    /// How many columns of `form`'s table have an empty name (`""`, which
    /// SQLite allows): no field can name one, so no read or write reaches it.
    func unnamedColumnCount(of form: Form) throws -> Int

    /// Calls `body` with each record `query` chooses, as model values.
    func forEachRecord(_ form: Form, query: RecordQuery, _ body: (StoredRecord) throws -> Void) throws
    /// Calls `body` with `columns`' values exactly as the database holds them,
    /// kind-less (what `export` writes and `import` reads back as the same value).
    func forEachExportedRow(_ form: Form, columns: [String], query: RecordQuery,
                            _ body: ([FieldValue]) throws -> Void) throws
    /// The rows of each of `form`'s groups under the record with `key`, in
    /// their order, each column exactly as the database holds it, as
    /// `forEachExportedRow` gives a record's (what `export --children` writes).
    func exportedGroupRows(_ form: Form, key: RecordKey) throws -> [String: [[String: FieldValue]]]
    /// Runs `body` with a batch of `form`'s records in one write transaction:
    /// committed when it returns and `commit` is true, else rolled back. With
    /// an `attribution`, each record written is a save in the history, by it.
    func writeRecords<T>(_ form: Form, commit: Bool, attribution: ChangeAttribution?,
                         _ body: (any RecordWriting) throws -> T) throws -> T

    /// Creates or upgrades FormStore's own tables; returns the migration files applied.
    func initializeOwnTables() throws -> [String]
    /// Applies the user's pending migrations; returns the files applied.
    func migrate(with migrator: Migrator) throws -> [String]
}

/// A key column of a form's table.
public struct RecordKeyColumn: Sendable, Hashable {
    public var name: String
    /// The column holds whole numbers: a typed key is read as one.
    public var holdsIntegers: Bool
    /// A new record must be given it: the database fills in no value
    /// (no default, identity, serial or rowid).
    public var mustBeGiven: Bool
    /// The column may hold NULL as a stored row's key (an SQLite quirk kept
    /// for old schemas: a declared key that is not the rowid, without NOT
    /// NULL): a NULL given for it names that row, not a new one.
    public var holdsNull: Bool

    public init(name: String, holdsIntegers: Bool, mustBeGiven: Bool, holdsNull: Bool = false) {
        self.name = name
        self.holdsIntegers = holdsIntegers
        self.mustBeGiven = mustBeGiven
        self.holdsNull = holdsNull
    }
}

/// Records of one form written inside one transaction (an import's): see
/// `RecordStore.writeRecords`. A write that fails undoes only itself, so the
/// caller may report it and go on.
public protocol RecordWriting: AnyObject {
    var keyColumns: [String] { get }
    /// The record with this key, and its values by column exactly as stored.
    func loadStored(_ key: RecordKey) throws -> (record: StoredRecord, stored: [String: DatabaseValue])?
    /// Inserts a record; `like` gives values as they arrived, kept as they are
    /// where they hold the same model value (so an export imports back unchanged).
    func insert(_ values: [String: FieldValue], like: [String: DatabaseValue]) throws
    /// Inserts a record laid out by slot (the form's `CompiledForm.layout`),
    /// `arrived` holding the values as they arrived, by slot too.
    func insert(_ values: RecordValues, arrived: RecordValues) throws
    /// Inserts a record unless one with its key is stored; false, having
    /// written nothing, when one is or when the store cannot tell without a lookup.
    func insertIfKeyIsFree(_ values: RecordValues, arrived: RecordValues) throws -> Bool
    /// Writes `changes` to the record with `key`; false when there is none.
    @discardableResult
    func update(_ key: RecordKey, changes: [String: FieldValue], like: [String: DatabaseValue]) throws -> Bool
    /// How many references to missing records the transaction sees now (0 without foreign keys).
    func foreignKeyViolationCount() throws -> Int
    /// Whether the commit would fail now for a reference its check was left
    /// to (`deferForeignKeyChecks`, a key the schema defers): what a dry run,
    /// which never commits, asks of the store the way the commit will.
    func commitWouldFailForReferences() throws -> Bool
    /// Checks foreign keys at the commit from now on (`PRAGMA
    /// defer_foreign_keys`), so rows referring to one another in any order
    /// all get in; false where the store cannot (PostgreSQL's constraints
    /// not declared DEFERRABLE), which leaves them checked per row.
    func deferForeignKeyChecks() throws -> Bool
    /// The rowid of the last row this batch inserted (0 for none, or where rows have none).
    var lastInsertedRowID: Int64 { get }
    /// Whether the schema checks some foreign key of the batch's tables at
    /// the commit (SQLite's `DEFERRABLE INITIALLY DEFERRED`): a write such a
    /// key refuses later would leave its count behind even when the write
    /// itself fails, so such a batch defers every check from the start.
    var checksSomeForeignKeysAtCommit: Bool { get }
    /// Among `rowIDs` of the form's table, those whose foreign keys refer to
    /// no row now, each with the refusal naming its field (`FormStoreError`,
    /// `missingReference`) where one field says it.
    func missingReferences(amongRowIDs rowIDs: Set<Int64>) throws -> [Int64: String]
    /// The refusal of the first foreign key among `values` (by column) that
    /// refers to no row now, checked even while the checks wait
    /// for the commit: how the rows written with their checks deferred are
    /// each named by their line, updates and WITHOUT ROWID rows too.
    func missingReference(in values: [String: FieldValue]) throws -> String?
    /// Runs `body`, undoing all it wrote when it throws (a savepoint): the
    /// writes of one input line with its child rows, which may be tried again.
    func atomically<T>(_ body: () throws -> T) throws -> T
    /// A value as a date column of the form stores it (any of its forms), read as a date.
    func storedDate(_ value: FieldValue, field: String) -> Date?
    /// The columns the database computes (generated columns): never written,
    /// so an input's value for one is no change anybody asked for.
    var computedColumns: Set<String> { get }
    /// Whether a decimal column keeps a number's every digit (PostgreSQL's
    /// `numeric`): a value past what a double holds is written as its text,
    /// not refused. SQLite's NUMERIC would round it to a REAL.
    var keepsDecimalDigits: Bool { get }
}

extension RecordWriting {
    public var keepsDecimalDigits: Bool { false }

    /// A store that checks per row: rows wait and are tried again.
    public func deferForeignKeyChecks() throws -> Bool { false }
    /// A store that checks per row leaves nothing to the commit.
    public func commitWouldFailForReferences() throws -> Bool { false }
    public var lastInsertedRowID: Int64 { 0 }
    public var checksSomeForeignKeysAtCommit: Bool { false }
    public func missingReferences(amongRowIDs rowIDs: Set<Int64>) throws -> [Int64: String] { [:] }
    public func missingReference(in values: [String: FieldValue]) throws -> String? { nil }

    /// By the values' keys: a store without a slot-bound INSERT (PostgreSQL's).
    public func insert(_ values: RecordValues, arrived: RecordValues) throws {
        try insert(values.dictionary, like: arrived.dictionary.mapValues(DatabaseValue.init))
    }

    /// Never without a lookup: a store that has no INSERT leaving a stored key alone.
    public func insertIfKeyIsFree(_ values: RecordValues, arrived: RecordValues) throws -> Bool { false }
}

extension RecordQuery {
    /// The fields a `search` looks in: the form's stored, non-secret text-like fields.
    ///
    /// - throws: `FormStoreError` when the form has none.
    public static func searchedFields(of form: Form) throws -> [Field] {
        let fields = form.fields.filter { field in
            field.holdsValue && field.isStored && !field.isSecure && QuerySQL.searchedKinds.contains(field.kind)
        }
        guard !fields.isEmpty else { throw FormStoreError.noTextToSearch(form: form.name) }
        return fields
    }

    /// `%text%` with `\`, `%` and `_` escaped, for `LIKE … ESCAPE '\'`.
    public static func likePattern(_ text: String) -> String {
        QuerySQL.likePattern(text)
    }
}

extension RecordStore {
    /// Every key that may refer to the table, where the store does not look at rows.
    public func referrers(of form: Form, key: RecordKey) throws -> [String] { try referrers(of: form.tableName) }

    public func deleteEffects(of form: Form, key: RecordKey) throws -> [DeleteEffect] {
        try walkDelete(of: form, key: key, holdingBack: nil)
    }

    public func referrersOfCascadedRows(of form: Form, key: RecordKey) throws -> [String] {
        var names: [String] = []
        _ = try walkDelete(of: form, key: key) { referrer in
            if !names.contains(referrer.name) { names.append(referrer.name) }
        }
        return names
    }

    /// A store whose date columns are typed (PostgreSQL's) takes no date as text.
    public func readingDates(of form: Form, asIn incoming: (RowGroup?, String) throws -> [DatabaseValue]) throws -> Form { form }
}
