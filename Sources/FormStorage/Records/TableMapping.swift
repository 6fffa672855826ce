import FoundationEssentials
import FormBasics
public import FormCore

/// How a form's stored fields map onto a table's columns, with the SQL for
/// each operation built once: identifiers quoted, values always bound.
public struct TableMapping: Sendable, Hashable {
    public let form: Form
    public let table: TableInfo
    /// Primary-key columns, in key order.
    public let keyColumns: [String]
    /// Columns read into a record: the form's stored fields, the key and the version.
    public let columns: [String]
    /// The storage coding of each column (by its field's kind).
    public private(set) var codings: [String: StorageCoding]
    /// Fields that reach into a JSON text column by a dotted path
    /// (`"prefs.theme"` → column `prefs`, path `theme`), by field key.
    public let jsonPaths: [String: JSONPath]
    public let selectSQL: String
    /// The record's condition, bound to `keyArguments`. A key column of no
    /// declared type is matched whether it holds the key as a number or as
    /// its text (`7` or `'7'`): SQLite compares such a column without
    /// converting either, and a key read or typed as `7` is bound as an
    /// INTEGER. Where both are stored, a write finds two rows and is refused.
    /// A key column that can hold NULL (`TableMapping.keyHoldsNull`) is
    /// matched with `IS`, so the row whose key is NULL is found by a NULL
    /// argument (`IS` is `=` for any other value, and uses the same index).
    let whereKey: String
    /// `whereKey` with numbered parameters (`?1`…), for SQL that repeats it.
    let numberedWhereKey: String
    /// Whether each key column, in key order, has no declared type (its
    /// argument is bound twice: as stored, and as text).
    private let untypedKeys: [Bool]
    /// Whether a key column has no type: its key may name two rows (5 and '5').
    let hasUntypedKey: Bool
    /// `selectSQL` of the record with a key.
    let selectByKeySQL: String
    /// The coding of each of `columns`, in the same order.
    private var columnCodings: [StorageCoding]
    /// How each of `columns` is decoded (its coding's `reading`), in the same order: what a row's read decodes by.
    private let columnReadings: [StorageCoding.Reading]
    /// The position in `columns` of each of `keyColumns`, in key order.
    private let keyPositions: [Int]
    /// By key column (key order), whether its field reads a date: such a key
    /// is kept as stored (`'2024-01-02T10:00:00Z'`, an epoch), not as the date
    /// it reads as. Bound as the date in the column's usual layout, a key
    /// found the row of another layout holding the same instant, and none
    /// where the row's layout was another.
    private let keysKeptAsStored: [Bool]
    /// Each column's quoted name, quoted once rather than per statement built.
    private let quotedColumns: [String: String]
    /// Each column's position in `columns`.
    private let columnPositions: [String: Int]
    /// The schema asks for its foreign keys to be checked at the commit.
    let defersForeignKeys: Bool
    /// The form's fields a save can change, whose changes its history records:
    /// stored, holding a value, read from a column or a JSON path.
    let recordedFields: [Field]
    /// The `INSERT` and `UPDATE` texts already built, by kind and column set.
    private let statementSQL = StatementSQLCache()
    /// The affinity of each of `columns` (`nil`: the hidden rowid), in the same order.
    private let columnAffinities: [ColumnAffinity?]
    /// How an INSERT treats each of `columns` (same order), read off the table once
    /// rather than searched for by name per row (`insertColumns`).
    private var insertRoles: [InsertRole] = []

    /// What an INSERT does with a column: never name it (generated), or,
    /// for a NULL, leave it out so SQLite fills it in (a default; the rowid).
    private struct InsertRole: Sendable, Hashable {
        var isGenerated = false
        /// A NULL is left out (the column has a default, or is the rowid).
        var nullFilledIn = false
        /// An explicit NULL that arrived as such is still stored where the
        /// column takes it (a default, not the key, not NOT NULL).
        var arrivedNullKept = false
        /// A NULL is stored even with nothing arrived: the column takes NULL
        /// and the form's field starts at the column's literal DEFAULT, so
        /// a NULL there is a person's clearing of it (`new t a:=null`), not
        /// a value nobody gave.
        var clearedNullKept = false
        /// The column's literal DEFAULT as the field reads it: a new record's
        /// value equal to it, given by no import, is left out, so SQLite
        /// stores the default in its own form (`'no'`, not the 0 a bool writes).
        var defaultValue: FieldValue?
    }

    /// The form's record layout (`RecordLayout.of(form)`, the compiled form's), which rows are read into.
    let layout: RecordLayout
    /// The slot in `layout` of each of `columns` (`nil`: a key or version
    /// column no field names, kept beside the slots).
    let columnSlots: [Int?]
    /// The JSON-path fields in key order, with each one's column (position in
    /// `columns`) and slot.
    let pathSlots: [PathSlot]
    /// The position in `columns` of each of `recordedFields` (`nil` for a
    /// JSON path, recorded as the document holds it), in the same order.
    let recordedColumns: [Int?]
    /// The slot of each of `recordedFields`, in the same order.
    let recordedSlots: [Int]
    /// Which of `recordedFields` each of `columns` holds, by position in `columns`.
    let recordedFieldOfColumn: [Int?]
    /// Whether an `UPDATE` of a row, triggers aside, changes only the columns
    /// it writes (and the version): a table with no JSON path, no generated
    /// column read and no foreign key to itself acting on update. A save then
    /// reads the row before it in part (`rowToUpdate(from:positions:)`).
    let updateChangesOnlyWritten: Bool

    init(form: Form, table: TableInfo) throws {
        self.form = form
        self.table = table
        var key = form.primaryKey.isEmpty ? table.primaryKey.columns : form.primaryKey
        if key.isEmpty && table.primaryKey == .hiddenRowID, let rowID = table.rowIDName { key = [rowID] }
        // A view has no key of its own, nor a table whose columns hide its
        // rowid: it can be listed and exported, and its spec may name one
        // (docs/fidelity.md).
        guard !key.isEmpty || table.isView || table.primaryKey == .hiddenRowID else {
            throw FormStoreError.noPrimaryKey(table.name)
        }
        // A spec's key must name one row, or a write meant for one would change several.
        guard key.isEmpty || table.isView || table.identifiesOneRow(key) else {
            throw FormStoreError.keyNotUnique(key, form: form.name, table: table.name)
        }
        // A table without a declared key is still found by its hidden rowid.
        let hasColumn = { (name: String) in
            table.column(name) != nil || (name == table.rowIDName && table.primaryKey == .hiddenRowID)
        }
        keyColumns = key
        var columns: [String] = []
        var codings: [String: StorageCoding] = [:]
        var jsonPaths: [String: JSONPath] = [:]
        for field in form.fields where field.isStored && field.holdsValue {
            let column = table.column(field.key)
            // A field typed in hex holds bytes (a BLOB column's): its stored
            // values are taken storage class by storage class, so a BLOB whose
            // bytes happen to read as UTF-8 stays bytes, shown as x'…' and
            // edited in hex like any other (docs/fidelity.md), not text.
            codings[field.key] = StorageCoding(
                kind: field.transforms.contains(.hex) ? nil : field.kind,
                dateFormat: column.map { DateStorageFormat.default(kind: field.kind, declaredType: $0.declaredType) },
                isUntyped: column.map(\.isUntyped) ?? false)
            if hasColumn(field.key) {
                columns.append(field.key)
            } else if let path = JSONPath(fieldKey: field.key), hasColumn(path.column), form.field(path.column) == nil {
                jsonPaths[field.key] = path
                if !columns.contains(path.column) { columns.append(path.column) }
            } else {
                throw FormStoreError.unknownColumn(field.key, field: field.key, form: form.name, table: table.name)
            }
        }
        self.jsonPaths = jsonPaths
        for extra in key + [form.versionColumn].compactMap({ $0 }) where !columns.contains(extra) {
            guard hasColumn(extra) else {
                throw FormStoreError.unknownColumn(extra, field: extra, form: form.name, table: table.name)
            }
            columns.append(extra)
        }
        self.columns = columns
        self.codings = codings
        quotedColumns = Dictionary(columns.map { ($0, quoteIdentifier($0)) }, uniquingKeysWith: { first, _ in first })
        columnPositions = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let untypedKeys = key.map { table.column($0)?.isUntyped == true }
        self.untypedKeys = untypedKeys
        hasUntypedKey = untypedKeys.contains(true)
        whereKey = Self.keyCondition(key, table: table) { _ in "?" }
        numberedWhereKey = Self.keyCondition(key, table: table) { "?\($0)" }
        selectSQL = "SELECT \(columns.map(quoteIdentifier).joined(with: ", ")) FROM \(quoteIdentifier(table.name))"
        selectByKeySQL = "\(selectSQL) WHERE \(whereKey)"
        columnCodings = columns.map { codings[$0] ?? .kindless }
        let readings = columnCodings.map(\.reading)
        columnReadings = readings
        let keyPositions = key.map { columns.firstIndex(of: $0)! }
        self.keyPositions = keyPositions
        keysKeptAsStored = keyPositions.map { readings[$0].kind?.isDateLike == true }
        columnAffinities = columns.map { table.column($0)?.affinity }
        insertRoles = columns.map { column in
            guard let info = table.column(column) else { return InsertRole() }
            let field = form.field(column)
            let defaultValue = info.defaultValueSQL.flatMap { sql in
                field.flatMap { FormInference.defaultValue(sql, kind: $0.kind) }
            }
            // Where the column takes it: on a NOT NULL column the default stays, as for a `new` record's.
            let arrivedNullKept = info.defaultValueSQL != nil && !info.isPrimaryKey && !info.isNotNull
            return InsertRole(isGenerated: info.isGenerated,
                              nullFilledIn: info.defaultValueSQL != nil || (table.primaryKey.isRowID && info.isPrimaryKey),
                              arrivedNullKept: arrivedNullKept,
                              clearedNullKept: arrivedNullKept && defaultValue != nil
                                  && field?.defaultValue == defaultValue,
                              defaultValue: defaultValue)
        }
        defersForeignKeys = table.sql.uppercased().containsUTF8("INITIALLY DEFERRED")
        let read = Set(columns)
        recordedFields = form.fields.filter {
            $0.isStored && $0.holdsValue && (read.contains($0.key) || jsonPaths[$0.key] != nil)
        }
        let layout = RecordLayout.of(form)
        self.layout = layout
        columnSlots = columns.map { layout.position(of: $0) }
        pathSlots = jsonPaths.sorted { $0.key < $1.key }.map { field, path in
            PathSlot(field: field, path: path, column: columns.firstIndex(of: path.column)!,
                     slot: layout.position(of: field))
        }
        recordedColumns = recordedFields.map { jsonPaths[$0.key] == nil ? columns.firstIndex(of: $0.key) : nil }
        recordedSlots = recordedFields.map { layout.position(of: $0.key)! }
        var recordedFieldOfColumn = [Int?](repeating: nil, count: columns.count)
        for (index, column) in recordedColumns.enumerated() {
            if let column { recordedFieldOfColumn[column] = index }
        }
        self.recordedFieldOfColumn = recordedFieldOfColumn
        let selfReferenceActs = table.foreignKeys.contains { key in
            key.destinationTable.equalsIgnoringCase(table.name)
                && !["NO ACTION", "RESTRICT"].contains(key.onUpdate.uppercased())
        }
        updateChangesOnlyWritten = jsonPaths.isEmpty && !table.isView && !selfReferenceActs
            && !columns.contains { table.column($0)?.isGenerated == true }
    }

    /// A field read from a path inside a JSON text column.
    struct PathSlot: Sendable, Hashable {
        var field: String
        var path: JSONPath
        /// The document's position in `columns`.
        var column: Int
        var slot: Int?
    }

    func coding(_ column: String) -> StorageCoding { codings[column] ?? .kindless }

    private func quoted(_ column: String) -> String { quotedColumns[column] ?? quoteIdentifier(column) }

    /// The key's values, bound in key order.
    // Inlined: called on the cache's mapping (`CachedMapping`), it would be
    // handed a copy of the whole mapping per load.
    @inline(__always)
    func keyArguments(_ key: RecordKey) throws -> [DatabaseValue] {
        guard !keyColumns.isEmpty else {
            throw FormStoreError.noPrimaryKey(table.name, rowIDHidden: !table.isView && table.primaryKey == .hiddenRowID)
        }
        // A key of one column, the usual one, as an array literal: `map`
        // reserved its room through the array's growing path (issue 14).
        if keyPositions.count == 1 && !untypedKeys[0] { return [try keyArgument(key, at: 0)] }
        var arguments: [DatabaseValue] = []
        for (index, untyped) in untypedKeys.enumerated() {
            let argument = try keyArgument(key, at: index)
            arguments.append(argument)
            if untyped { arguments.append(argument) }
        }
        return arguments
    }

    /// Whether the key column `column` of `table` can hold NULL: a column of
    /// a rowid table's primary key that is not the rowid and is not declared
    /// NOT NULL (an SQLite quirk kept for old schemas), or a view's column.
    static func keyHoldsNull(_ column: String, of table: TableInfo) -> Bool {
        guard let info = table.column(column) else { return false }
        return !info.isNotNull && !table.isWithoutRowID && !(info.isPrimaryKey && table.primaryKey.isRowID)
    }

    /// The condition matching `key`'s columns to their arguments, each
    /// written by `parameter` from its number (1, 2, …): `=` for a column
    /// that cannot hold NULL, `IS` for one that can; a column of no declared
    /// type takes its argument twice, as bound and as text (see `whereKey`).
    private static func keyCondition(_ key: [String], table: TableInfo, parameter: (Int) -> String) -> String {
        var number = 0
        return key.map { column in
            let quoted = quoteIdentifier(column)
            let equals = keyHoldsNull(column, of: table) ? "IS" : "="
            number += 1
            guard table.column(column)?.isUntyped == true else { return "\(quoted) \(equals) \(parameter(number))" }
            number += 1
            return "(\(quoted) \(equals) \(parameter(number - 1)) OR \(quoted) = CAST(\(parameter(number)) AS TEXT))"
        }.joined(with: " AND ")
    }

    /// The key's value for its key column at `index` (key order), encoded as stored.
    @inline(__always)
    private func keyArgument(_ key: RecordKey, at index: Int) throws -> DatabaseValue {
        let position = keyPositions[index]
        guard let value = key[columns[position]] else {
            throw FormStoreError.badKey(RecordKey.lacking(columns[position], key, table: table.name, keyedBy: keyColumns))
        }
        // A date key as stored (`keysKeptAsStored`) is bound as it is; a date given for it, in the column's layout.
        if keysKeptAsStored[index] {
            if case .date = value {} else { return DatabaseValue(value) }
        }
        return columnCodings[position].encode(value)
    }

    /// The value bound for `value` in the column at `position` (in
    /// `columns`), in the form of `like` (`StorageCoding.encode(_:like:)`).
    /// A whole number a double cannot hold (past 2^53, such as
    /// 9007199254740993) is refused for a column of REAL affinity, where
    /// SQLite would store the nearest double instead: what is written is what was given.
    @inline(__always)
    private func argument(_ value: FieldValue, at position: Int, like: DatabaseValue?) throws -> DatabaseValue {
        try checked(columnCodings[position].encode(value, like: like), at: position)
    }

    /// `argument`, unless the column at `position` would store another number (see `argument(_:at:like:)`).
    @inline(__always)
    private func checked(_ argument: DatabaseValue, at position: Int) throws -> DatabaseValue {
        // SQLite holds no NaN: bound, it is stored as NULL, which is not what was given.
        if case .real(let real) = argument, real.isNaN {
            throw FormStoreError(reason: .inexactNumber, message: "\(columns[position]): NaN would be stored as NULL: SQLite holds no NaN",
                                 field: columns[position])
        }
        // A double bound to a column of TEXT affinity is stored as SQLite's text of it, which keeps
        // 15 digits and no sign of zero (`0.30000000000000004` became '0.3', `-0.0` '0.0'): bound as
        // its shortest text that gives the number back, what the field showed.
        if case .real(let real) = argument, columnAffinities[position] == .text { return .text(real.description) }
        if case .integer(let integer) = argument, integer.magnitude > 1 << 53, columnAffinities[position] == .real,
           Int64(exactly: Double(integer)) != integer {
            throw FormStoreError.inexactReal(integer, column: columns[position])
        }
        // Text a NUMERIC column's affinity reads as a number is converted by SQLite, past an INTEGER
        // through a double: `9007199254740993.0` in a `JSON` column was stored as the INTEGER …992,
        // `12345678901234567890` as the REAL 1.234567890123456e19.
        if case .text(let text) = argument, columnAffinities[position] == .numeric,
           text.allSatisfy({ "0123456789+-.eE".contains($0) }), Int64(text) == nil, let real = Double(text), real.isFinite,
           FieldValue.decimal(exactly: text) == nil {
            throw FormStoreError(reason: .inexactNumber, message: "\(columns[position]): \(text) has more digits than its "
                                     + "column's numbers hold: SQLite would store \(Int64(exactly: real).map(String.init) ?? String(real))",
                                 field: columns[position])
        }
        return argument
    }

    /// `values` by field with each JSON path written into its column's
    /// document (the document in `current`, so keys no field names are kept).
    ///
    /// - throws: `FormStoreError.notADocument` where the column holds
    ///   something other than a JSON object to reach into (`[1]`, text):
    ///   written over, it would be lost.
    func columnValues(_ values: [String: FieldValue], over current: [String: FieldValue]) throws -> [String: FieldValue] {
        guard !jsonPaths.isEmpty else { return values }
        var result = values
        var edits: [String: [JSONPath.Edit]] = [:]
        for (field, path) in jsonPaths.sorted(by: { $0.key < $1.key }) {
            guard let value = values[field] else { continue }
            edits[path.column, default: []].append(JSONPath.Edit(field: field, path: path.components, literal: value.jsonLiteral))
        }
        for (column, changes) in edits { result[column] = .text(try JSONPath.document(current[column], column: column, setting: changes)) }
        return result
    }

    /// A JSON text column's document; an empty one for NULL or text that is no JSON object.
    static func document(_ value: FieldValue?) -> DictionaryModel {
        guard case .text(let text)? = value, let document = try? DictionaryModel(json: Data(text.utf8)) else {
            return DictionaryModel()
        }
        return document
    }

    /// The INSERT for a new record's values and its arguments. A NULL for a
    /// column with a default (or for the rowid) is left out so SQLite fills it
    /// in; rows of the same shape share one SQL text, so one cached statement.
    ///
    /// `like` holds, by column, the value as it arrived (an import's): a value
    /// is stored in its form (see `StorageCoding.encode(_:like:)`).
    func insertStatement(_ values: [String: FieldValue], like: [String: DatabaseValue] = [:])
        throws -> (sql: String, arguments: StatementArguments) {
        let (given, arguments) = try insertColumns(values, like: like)
        return (insertSQL(given), StatementArguments(arguments))
    }

    /// The columns an INSERT of `values` names (positions in `columns`) and
    /// their arguments, in one pass over the columns: every value given,
    /// except a NULL where SQLite fills in a default or the rowid, and never
    /// a generated column; each value stored in the form it arrived in
    /// (`like`) where it holds the same value.
    func insertColumns(_ values: [String: FieldValue], like: [String: DatabaseValue])
        throws -> (given: [Int], arguments: [DatabaseValue]) {
        try insertColumns(value: { values[columns[$0]] }, arrived: { like.isEmpty ? nil : like[columns[$0]] })
    }

    /// `insertColumns(_:like:)` of values laid out by slot (`layout`), each
    /// column's found by its slot with no name hashed; `arrived` holds the
    /// values as they arrived, by slot too.
    func insertColumns(_ values: RecordValues, arrived: RecordValues) throws -> (given: [Int], arguments: [DatabaseValue]) {
        try insertColumns(value: { value(of: $0, in: values) }, arrived: { value(of: $0, in: arrived).map(DatabaseValue.init) })
    }

    /// The value of the column at `index` (in `columns`) in `values`: at its slot, or beside the slots.
    private func value(of index: Int, in values: RecordValues) -> FieldValue? {
        if let slot = columnSlots[index], values.layout === layout { return values.slots[slot] }
        return values[columns[index]]
    }

    /// The one pass of the `insertColumns` methods, the value and the arrived
    /// form of the column at each position read through `value` and `arrived`.
    // Inlined into each caller, so the two closures are too: called through them, an
    // import paid more per row for the calls than for the values (issue 14).
    @inline(__always)
    private func insertColumns(value: (Int) -> FieldValue?, arrived: (Int) -> DatabaseValue?)
        throws -> (given: [Int], arguments: [DatabaseValue]) {
        var given: [Int] = []
        var arguments: [DatabaseValue] = []
        given.reserveCapacity(columns.count)
        arguments.reserveCapacity(columns.count)
        for index in columns.indices {
            let role = insertRoles[index]
            guard !role.isGenerated, let value = value(index) else { continue }
            let arrived = arrived(index)
            // A NULL that arrived as such (an import's explicit null) is stored, not replaced by the default.
            // (Matched, not `==`: the derived equality was a call and two copies per column.)
            if case .null = value, role.nullFilledIn, !role.clearedNullKept,
               !(role.arrivedNullKept && arrived?.isNull == true) { continue }
            if arrived == nil, let defaultValue = role.defaultValue, value == defaultValue { continue }
            given.append(index)
            // A value that arrived in its stored form (an import's usual one) needs no coding, nor its copy.
            if let arrived, StorageCoding.isStoredForm(arrived, of: value, kind: columnReadings[index].kind) {
                arguments.append(try checked(arrived, at: index))
            } else {
                arguments.append(try argument(value, at: index, like: arrived))
            }
        }
        return (given, arguments)
    }

    /// The INSERT naming these columns (positions in `columns`): one SQL text
    /// per column set, built once (`StatementSQLCache`). With `ifKeyIsFree`,
    /// a row whose key is already stored is not inserted (`ON CONFLICT (key)
    /// DO NOTHING`; a conflict on any other constraint still fails).
    ///
    /// `OR ABORT` overrides a conflict clause of the schema's (`UNIQUE ON
    /// CONFLICT REPLACE` deletes the other row holding the value, `IGNORE`
    /// drops the write): a conflict is refused, and no row but the one
    /// written changes (docs/fidelity.md).
    func insertSQL(_ given: [Int], ifKeyIsFree: Bool = false) -> String {
        statementSQL.sql(StatementSQLCache.Key(kind: .insert(ifKeyIsFree: ifKeyIsFree), columns: given)) {
            let insert = given.isEmpty
                ? "INSERT OR ABORT INTO \(quoteIdentifier(table.name)) DEFAULT VALUES"
                : "INSERT OR ABORT INTO \(quoteIdentifier(table.name)) (\(given.map { quoted(columns[$0]) }.joined(separator: ", "))) "
                    + "VALUES (\(Array(repeating: "?", count: given.count).joined(separator: ", ")))"
            guard ifKeyIsFree else { return insert }
            return insert + " ON CONFLICT (\(keyColumns.map(quoted).joined(separator: ", "))) DO NOTHING"
        }
    }

    /// Whether a key conflict can be left to the INSERT (`insertSQL(_:ifKeyIsFree:)`):
    /// the key is the table's declared primary key, which `ON CONFLICT` names
    /// (a spec's UNIQUE key, the hidden rowid or a view's key may not be one).
    var insertsIfKeyIsFree: Bool {
        !table.isView && table.primaryKey != .hiddenRowID
            && Set(table.primaryKey.columns.map { $0.lowercased() }) == Set(keyColumns.map { $0.lowercased() })
    }

    /// The UPDATE writing `changes` (and bumping the version column) to the
    /// record with `key`; `nil` when there is nothing to write. Each value is
    /// written in the form of its `like` value: the stored value it replaces,
    /// so a changed date keeps the layout, epoch or Julian day the row uses.
    ///
    /// The text for a set of columns is built once (`StatementSQLCache`).
    /// A save reads the row back with `selectByKeySQL` after it, not through
    /// `UPDATE … RETURNING`: SQLite runs a `RETURNING` as a trigger, which
    /// cost more than the `SELECT` (on a 200-column row, three times as much),
    /// and it reports an integral REAL as an INTEGER, where the row as stored
    /// (and loaded) holds a REAL (issue 14).
    func updateStatement(_ changes: [String: FieldValue], key: [DatabaseValue], like: [String: DatabaseValue] = [:])
        throws -> (sql: String, arguments: StatementArguments)? {
        var written: [Int] = []
        var arguments: [DatabaseValue] = []
        for index in columns.indices {
            guard let value = changes[columns[index]] else { continue }
            written.append(index)
            arguments.append(try argument(value, at: index, like: like[columns[index]]))
        }
        return updateStatement(written: written, arguments: arguments, key: key)
    }

    /// `updateStatement(_:key:like:)` with the row's stored values
    /// (`StoredRow`): each change finds its column by one lookup, rather
    /// than every column looked up in the changes.
    ///
    /// `storedForms` (`SaveBase.storedForms`) gives, by column, the stored
    /// form a change is written in where it holds the change's value.
    ///
    /// Loops, not closures: a closure here captured a copy of the whole
    /// mapping per save (issue 14).
    func updateStatement(_ changes: [String: FieldValue], key: [DatabaseValue], over row: StoredRow,
                         storedForms: [String: FieldValue] = [:])
        throws -> (sql: String, arguments: StatementArguments, written: [Int], values: [DatabaseValue])? {
        var written: [Int] = []
        written.reserveCapacity(changes.count)
        for field in changes.keys {
            if let position = columnPositions[field] { written.append(position) }
        }
        written.sort()
        var arguments: [DatabaseValue] = []
        arguments.reserveCapacity(written.count + key.count)
        for position in written {
            let value = changes[columns[position]]!
            if !storedForms.isEmpty, let given = storedForms[columns[position]].map(DatabaseValue.init),
               columnCodings[position].decode(given) == value {
                arguments.append(try checked(given, at: position))
            } else {
                arguments.append(try argument(value, at: position, like: row.stored(at: position)))
            }
        }
        guard let statement = updateStatement(written: written, arguments: arguments, key: key) else { return nil }
        return (statement.sql, statement.arguments, written, arguments)
    }

    /// The stored forms an update of `before` replaced and wrote, by field:
    /// `written` and `values` are the positions and values of its statement
    /// (`updateStatement(_:key:over:storedForms:)`). Only fields that are
    /// columns: a JSON path's column holds a whole document.
    func writtenForms(of changes: [String: FieldValue], before: StoredRow, written: [Int],
                      values: [DatabaseValue]) -> WrittenForms {
        var forms = WrittenForms(before: [:], after: [:])
        for (offset, position) in written.enumerated() where changes[columns[position]] != nil {
            guard let old = before.stored(at: position) else { continue }
            forms.before[columns[position]] = FieldValue(old)
            forms.after[columns[position]] = FieldValue(values[offset])
        }
        return forms
    }

    /// The UPDATE of the columns at `written` (positions in `columns`, in
    /// order) to `arguments`, then the key; its text built once per column set.
    private func updateStatement(written: [Int], arguments: [DatabaseValue], key: [DatabaseValue])
        -> (sql: String, arguments: StatementArguments)? {
        guard !written.isEmpty || form.versionColumn != nil else { return nil }
        let cacheKey = StatementSQLCache.Key(kind: .update, columns: written)
        let sql: String
        if let cached = statementSQL.cached(cacheKey) {
            sql = cached
        } else {
            sql = statementSQL.keep(updateSQL(written), for: cacheKey)
        }
        var arguments = arguments
        arguments += key
        return (sql, StatementArguments(arguments))
    }

    /// The text of `updateStatement(written:arguments:key:)`: `OR ABORT`, as
    /// `insertSQL` says why.
    private func updateSQL(_ written: [Int]) -> String {
        var assignments = written.map { "\(quoted(columns[$0])) = ?" }
        if let version = form.versionColumn {
            assignments.append("\(quoteIdentifier(version)) = COALESCE(\(quoteIdentifier(version)), 0) + 1")
        }
        return "UPDATE OR ABORT \(quoteIdentifier(table.name)) SET \(assignments.joined(separator: ", ")) WHERE \(whereKey)"
    }

    /// The stored values of the current row of a statement of `selectSQL`, by column.
    func storedValues(from statement: Statement) -> [String: DatabaseValue] {
        var values: [String: DatabaseValue] = [:]
        values.reserveCapacity(columns.count)
        for index in columns.indices { values[columns[index]] = statement.value(at: index) as DatabaseValue }
        return values
    }

    /// The mapping with each date and bool column's `columnExample` read off a
    /// stored value of the column, so a new row's value, or one replacing a
    /// NULL, takes the form the other rows have.
    func sniffingColumnForms(_ conn: Connection) throws -> TableMapping {
        var copy = self
        for (column, coding) in codings where (coding.isDateLike || coding.kind == .bool) && table.column(column) != nil {
            // From the ends of the table: a mostly-NULL column of a large one was read whole.
            if let example = try conn.sampleValues(of: column, in: table.name, limit: 1).first {
                copy.codings[column]?.columnExample = example
            }
        }
        copy.columnCodings = copy.columns.map { copy.codings[$0] ?? .kindless }
        return copy
    }

    /// Reads the current row of a statement of `selectSQL` into a record,
    /// straight from the statement into the form's slots: no dictionary, no
    /// column name hashed (issue 14).
    func record(from statement: Statement) -> StoredRecord {
        guard pathSlots.isEmpty else { return record(decoding: columns.indices.map { statement.value(at: $0) }) }
        // Each column decoded where SQLite holds it, straight into its slot.
        // The kinds are taken out first: a closure using `columnReadings` copied the whole mapping.
        let kinds = columnReadings
        return record(slotValues { StorageCoding.decode(statement.cell(at: $0), reading: kinds[$0]) }) { statement.value(at: $0) as DatabaseValue }
    }

    /// Each column's value (`decoded(position)`, by position in `columns`)
    /// put in its slot, or beside the slots for a column no field names.
    private func slotValues(_ decoded: (Int) -> FieldValue) -> RecordValues {
        slotValues(of: columns.indices, decoded)
    }

    /// `slotValues(_:)` of the columns at `positions` only; the other slots stay empty.
    private func slotValues(of positions: some Sequence<Int>, _ decoded: (Int) -> FieldValue) -> RecordValues {
        // The slots are written in place as they are made: setting each in a
        // record built empty first checked the array's uniqueness and dropped
        // the nil it replaced, per column (issue 14: 2.5k of a 20-column load).
        // The array is made through `reserveCapacity`, which is specialized
        // for `FieldValue?`: `init(unsafeUninitializedCapacity:)` allocated
        // through the standard library's generic code, which looked up the
        // buffer's type metadata (~330 instructions a record; issue 14), and
        // `init(repeating: nil, count:)` cost ~500 more a record than this.
        var others: [String: FieldValue] = [:]
        var slots: [FieldValue?] = []
        slots.reserveCapacity(layout.keys.count)
        slots.append(contentsOf: EmptySlots(count: layout.keys.count))
        slots.withUnsafeMutableBufferPointer { buffer in
            for index in positions {
                let value = decoded(index)
                if let slot = columnSlots[index] { buffer[slot] = value } else { others[columns[index]] = value }
            }
        }
        var values = RecordValues(layout: layout, slots: slots)
        values.others = others
        return values
    }

    /// The current row of a statement of `selectSQL`: the record and each
    /// column's value as SQLite holds it, by position in `columns`.
    func row(from statement: Statement) -> StoredRow {
        let stored = columns.indices.map { statement.value(at: $0) as DatabaseValue }
        return StoredRow(record: record(decoding: stored), stored: stored)
    }

    /// `row(from:)` for a save's check of the row it changes, whose record is
    /// read only for its key, its version and the fields of `changes`: each
    /// column's stored value is kept, but only those columns are decoded
    /// (the other slots stay empty). On a wide form a save changes a few
    /// fields, and decoding every column went to waste (issue 14). A form
    /// with JSON paths gets its whole record.
    func rowToUpdate(from statement: Statement, changes: [String: FieldValue]) -> StoredRow {
        guard pathSlots.isEmpty else { return row(from: statement) }
        let stored = columns.indices.map { statement.value(at: $0) as DatabaseValue }
        let kinds = columnReadings
        return StoredRow(record: record(slotValues(of: positionsToUpdate(changes)) {
            StorageCoding.decode(stored[$0], reading: kinds[$0])
        }) { stored[$0] }, stored: stored)
    }

    /// The positions in `columns` a save's check of the row it changes reads
    /// when it reads in part: the key, the version and the columns of `changes`, in order.
    func positionsToUpdate(_ changes: [String: FieldValue]) -> [Int] {
        var positions = keyPositions
        if let version = form.versionColumn, let position = columnPositions[version] { positions.append(position) }
        for field in changes.keys {
            if let position = columnPositions[field] { positions.append(position) }
        }
        positions.sort()
        var unique: [Int] = []
        unique.reserveCapacity(positions.count)
        for position in positions where unique.last != position { unique.append(position) }
        return unique
    }

    /// The `SELECT` by key of just the columns at `positions` (in order), its text built once per column set.
    func selectByKeySQL(reading positions: [Int]) -> String {
        let cacheKey = StatementSQLCache.Key(kind: .select, columns: positions)
        if let cached = statementSQL.cached(cacheKey) { return cached }
        let list = positions.map { quoted(columns[$0]) }.joined(separator: ", ")
        return statementSQL.keep("SELECT \(list) FROM \(quoteIdentifier(table.name)) WHERE \(whereKey)", for: cacheKey)
    }

    /// `rowToUpdate(from:changes:)` of a statement of `selectByKeySQL(reading: positions)`:
    /// only those columns are read and kept (`StoredRow.positions`); the row
    /// read back after the update is read alike (`rowReadBack(from:after:)`).
    /// The record holds its few values by name, not in the layout's slots: a
    /// 200-slot record, nearly all empty, cost more to free than to read.
    func rowToUpdate(from statement: Statement, positions: [Int]) -> StoredRow {
        var stored: [DatabaseValue] = []
        stored.reserveCapacity(positions.count)
        var values = RecordValues(layout: .empty)
        values.others.reserveCapacity(positions.count)
        for offset in positions.indices {
            let value: DatabaseValue = statement.value(at: offset)
            stored.append(value)
            values.others[columns[positions[offset]]] = StorageCoding.decode(value, reading: columnReadings[positions[offset]])
        }
        return StoredRow(record: record(values) { positions.firstIndex(of: $0).map { stored[$0] } }, stored: stored, positions: positions)
    }

    /// The row read back after an update, for a row read before it in part
    /// (`before`): the record decoded where SQLite holds it (`record(from:)`),
    /// and only the stored values the history compares, those `before` read.
    /// A row read whole before gets a whole one (`row(from:)`).
    func rowReadBack(from statement: Statement, after before: StoredRow) -> StoredRow {
        guard let positions = before.positions else { return row(from: statement) }
        var stored: [DatabaseValue] = []
        stored.reserveCapacity(positions.count)
        for position in positions { stored.append(statement.value(at: position)) }
        return StoredRow(record: record(from: statement), stored: stored, positions: positions)
    }

    /// Which mapping this is: a mapping made again (its table changed) is another.
    var identity: ObjectIdentifier { ObjectIdentifier(statementSQL) }

    /// The row an update of `before` leaves, made without reading it back:
    /// `last`, the record as the row stood before the update
    /// (`Connection.takeRecordLeftByLastSave`), with `values` written to the
    /// columns at `written` (positions in `columns`) and the version bumped.
    /// `nil` (the row is read back) when SQLite may store a value in another
    /// form than it was bound in, the stored version is not an integer, or a
    /// key column is written.
    /// Only for a row read in part before (`rowToUpdate(from:positions:)`),
    /// whose update changes nothing but what it writes.
    func rowAfterUpdate(of before: StoredRow, written: [Int], values: [DatabaseValue],
                        over last: consuming StoredRecord) -> StoredRow? {
        // A key written moves the row: it is looked for again, under the key it was saved by.
        guard !before.isWhole, last.slotValues.layout === layout,
              !written.contains(where: keyPositions.contains) else { return nil }
        // The columns `before` read, which hold what the update wrote and the version;
        // the record written into where it is (`Connection.takeRecordLeftByLastSave`).
        var row = before
        row.record = consume last
        func write(_ value: DatabaseValue, at position: Int) -> Bool {
            guard value.isStoredAsBound(in: columnAffinities[position]), row.setStored(value, at: position) else {
                return false
            }
            let decoded = StorageCoding.decode(value, reading: columnReadings[position])
            if let slot = columnSlots[position] {
                row.record.slotValues.slots[slot] = decoded
            } else {
                row.record.slotValues.others[columns[position]] = decoded
            }
            return true
        }
        for index in written.indices where !write(values[index], at: written[index]) { return nil }
        if let version = form.versionColumn, let position = columnPositions[version] {
            // The UPDATE sets it to COALESCE(version, 0) + 1 (`updateSQL`).
            switch before.stored(at: position) {
            case .null?: guard write(.integer(1), at: position) else { return nil }
            case .integer(let number)? where number < .max: guard write(.integer(number + 1), at: position) else { return nil }
            default: return nil
            }
        }
        row.record = record(row.record.slotValues) { before.stored(at: $0) }
        return row
    }

    /// The record of one row's stored values (by position in `columns`).
    func record(decoding stored: [DatabaseValue]) -> StoredRecord {
        let kinds = columnReadings
        var values = slotValues { StorageCoding.decode(stored[$0], reading: kinds[$0]) }
        if !pathSlots.isEmpty {
            var documents: [Int: DictionaryModel] = [:]
            for path in pathSlots {
                if documents[path.column] == nil {
                    documents[path.column] = Self.document(columnCodings[path.column].decode(stored[path.column]))
                }
                let value = coding(path.field).decode(DatabaseValue(documents[path.column]!.value(forKey: path.path.path)))
                if let slot = path.slot { values.slots[slot] = value } else { values.others[path.field] = value }
            }
        }
        return record(values) { stored[$0] }
    }

    /// The record of values read into slots (or, laid out otherwise, by
    /// name): its key and version taken from them, a key kept as stored
    /// (`keysKeptAsStored`) from `stored` (by position in `columns`).
    private func record(_ values: RecordValues, stored: (Int) -> DatabaseValue?) -> StoredRecord {
        // By position: the key's columns are among those read, so no name is hashed.
        let inSlots = values.layout === layout
        func value(at position: Int) -> FieldValue {
            let value = if !inSlots {
                values[columns[position]]
            } else if let slot = columnSlots[position] {
                values.slots[slot]
            } else {
                values.others[columns[position]]
            }
            return value ?? .null
        }
        func keyValue(_ index: Int) -> FieldValue {
            guard keysKeptAsStored[index], let raw = stored(keyPositions[index]) else { return value(at: keyPositions[index]) }
            return FieldValue(raw)
        }
        // One column, the usual key, as an array literal (see `keyArguments`).
        let key = RecordKey(columns: keyColumns, values: keyPositions.count == 1 ? [keyValue(0)] : keyPositions.indices.map(keyValue))
        var version: Int64?
        if let column = form.versionColumn { version = values[column]?.intValue }
        return StoredRecord(key: key, slotValues: values, version: version)
    }
}

/// Where a field reaches into a JSON text column: `"prefs.ui.theme"` is
/// column `prefs`, path `ui.theme`.
public struct JSONPath: Sendable, Hashable {
    public let column: String
    public let path: String

    public init?(fieldKey: String) {
        guard let dot = fieldKey.firstIndex(of: "."), dot != fieldKey.startIndex,
              fieldKey.index(after: dot) != fieldKey.endIndex else { return nil }
        column = String(fieldKey[..<dot])
        path = String(fieldKey[fieldKey.index(after: dot)...])
    }

    /// One path's change of a document: the field, its keys, the value as JSON text.
    public struct Edit: Sendable {
        public var field: String
        public var path: [String]
        public var literal: String

        public init(field: String, path: [String], literal: String) {
            self.field = field
            self.path = path
            self.literal = literal
        }
    }

    /// The document `stored` holds with `edits` made, each member's text
    /// changed and the rest as it was (`JSONMemberEdit`); a new document where
    /// the column holds nothing (NULL, blank text).
    ///
    /// - throws: `FormStoreError.notADocument` where it holds something else
    ///   (`[1]`, text that is no JSON object, a member on a path that is no object).
    public static func document(_ stored: FieldValue?, column: String, setting edits: [Edit]) throws -> String {
        let text: String
        switch stored {
        case nil, .null?: text = "{}"
        case .text(let held)? where held.trimmingSpacesAndNewlines().isEmpty: text = "{}"
        case .text(let held)?: text = held
        default: throw FormStoreError.notADocument(field: edits.first?.field ?? column, column: column)
        }
        guard let edited = JSONMemberEdit.setting(edits.map { ($0.path, $0.literal) }, in: text) else {
            throw FormStoreError.notADocument(field: edits.first?.field ?? column, column: column)
        }
        return edited
    }

    /// The path's keys: `ui.theme` is `["ui", "theme"]`.
    public var components: [String] { path.split(separator: ".").map(String.init) }

    /// The path as SQLite's JSON functions take it: `$."ui"."theme"`.
    var jsonPathText: String {
        "$" + path.split(separator: ".").map { ".\"" + $0.replacing("\"", with: "\\\"") + "\"" }.joined()
    }
}

/// `count` empty slots, for `Array.append(contentsOf:)`, which hands
/// them its buffer to write in one go (`_copyContents`): appended from
/// `repeatElement(nil, count:)` they were taken one by one through its
/// iterator, ~29 instructions a slot (issue 14).
private struct EmptySlots: Sequence {
    let count: Int

    var underestimatedCount: Int { count }

    func makeIterator() -> IndexingIterator<Repeated<FieldValue?>> { repeatElement(nil, count: count).makeIterator() }

    func _copyContents(initializing buffer: UnsafeMutableBufferPointer<FieldValue?>)
        -> (IndexingIterator<Repeated<FieldValue?>>, Int) {
        let written = Swift.min(count, buffer.count)
        UnsafeMutableBufferPointer(rebasing: buffer[..<written]).initialize(repeating: nil)
        return (repeatElement(nil, count: count - written).makeIterator(), written)
    }
}
