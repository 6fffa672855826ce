import FormCore
import FoundationEssentials
import FormStorage

/// How a form's stored fields map onto a PostgreSQL table's columns, with the
/// SQL for each operation built once: identifiers quoted, values always bound
/// (`$1`, `$2` …), every write returning the row it left (`RETURNING`).
struct PostgresTableMapping: Sendable, Hashable {
    let form: Form
    let table: PostgresTable
    /// Primary-key columns, in key order.
    let keyColumns: [String]
    /// Columns read into a record: the form's stored fields, the key and the version.
    let columns: [String]
    private let codings: [String: PostgresCoding]
    /// The codings of `columns`, in their order: a record is decoded without a lookup per value.
    private let columnCodings: [PostgresCoding]
    /// Fields that reach into a JSON document column by a dotted path
    /// (`"prefs.theme"` → column `prefs`, path `theme`), by field key
    /// (`PostgresTableMapping+JSONPaths.swift`).
    let jsonPaths: [String: JSONPath]
    private let returning: String
    let selectByKeySQL: String
    /// The same, locking the row until the transaction ends.
    let selectByKeyForUpdateSQL: String
    let deleteSQL: String
    /// The form's record layout (`CompiledForm.layout`), which rows are read into.
    let layout: RecordLayout
    /// The slot in `layout` of each of `columns` (`nil`: kept beside the slots).
    private let columnSlots: [Int?]

    init(form: Form, table: PostgresTable) throws {
        self.form = form
        self.table = table
        let key = form.primaryKey.isEmpty ? table.primaryKey : form.primaryKey
        // A view, or a table without a primary key, has no key of its own: it
        // can be listed, exported and added to, as SQLite's views are, and a
        // record of it found by key says why not (`keyParameters`). A view's
        // spec may name a key (docs/fidelity.md), which no index can vouch for.
        guard key.isEmpty || table.isView || table.identifiesOneRow(key) else {
            throw PostgresStoreError.keyNotUnique(key, form: form.name, table: table.name)
        }
        keyColumns = key
        var columns: [String] = []
        var codings: [String: PostgresCoding] = [:]
        var jsonPaths: [String: JSONPath] = [:]
        for field in form.fields where field.isStored && field.holdsValue {
            if let column = table.column(field.key) {
                codings[field.key] = PostgresCoding(kind: field.kind, column: column)
                columns.append(field.key)
            } else if let path = JSONPath(fieldKey: field.key), let column = table.column(path.column),
                      Self.holdsDocuments(column), form.field(path.column) == nil {
                jsonPaths[field.key] = path
                codings[field.key] = PostgresCoding(kind: field.kind, column: nil)
                if !columns.contains(path.column) {
                    codings[path.column] = PostgresCoding(kind: nil, column: column)
                    columns.append(path.column)
                }
            } else {
                throw PostgresStoreError.unknownColumn(field.key, form: form.name, table: table.name)
            }
        }
        self.jsonPaths = jsonPaths
        for extra in key + [form.versionColumn].compactMap({ $0 }) where !columns.contains(extra) {
            guard let column = table.column(extra) else {
                throw PostgresStoreError.unknownColumn(extra, form: form.name, table: table.name)
            }
            codings[extra] = PostgresCoding(kind: nil, column: column)
            columns.append(extra)
        }
        self.columns = columns
        self.codings = codings
        columnCodings = columns.map { codings[$0]! }
        let quotedTable = quoteIdentifier(table.name)
        let whereKey = key.enumerated().map { "\(quoteIdentifier($1)) = $\($0 + 1)" }.joined(separator: " AND ")
        returning = columns.map(quoteIdentifier).joined(separator: ", ")
        selectByKeySQL = "SELECT \(returning) FROM \(quotedTable) WHERE \(whereKey)"
        selectByKeyForUpdateSQL = selectByKeySQL + " FOR UPDATE"
        deleteSQL = "DELETE FROM \(quotedTable) WHERE \(whereKey)"
        let layout = CompiledForm.of(form).layout
        self.layout = layout
        columnSlots = columns.map { layout.position(of: $0) }
    }

    func coding(_ column: String) -> PostgresCoding {
        codings[column] ?? PostgresCoding(kind: nil, column: table.column(column))
    }

    /// The key's values as parameters, in key order.
    func keyParameters(_ key: RecordKey) throws -> [String?] {
        guard !keyColumns.isEmpty else { throw PostgresStoreError.noPrimaryKey(table.name) }
        return try keyColumns.map { column in
            guard let value = key[column] else {
                throw PostgresStoreError.badKey(RecordKey.lacking(column, key, table: table.name, keyedBy: keyColumns))
            }
            return coding(column).encode(value)
        }
    }

    /// The INSERT of a new record. A NULL for a column the server fills in
    /// (a default, an identity or serial key) is left out, unless it was given
    /// (an import's `null`, a field cleared of its default); a generated
    /// column is never written.
    /// `like` gives values as they arrived (an import's): see `parameter(_:_:like:)`.
    ///
    /// - parameter overridingIdentity: take a value given for a `GENERATED
    ///   ALWAYS` identity, as pg_dump restores one (an import copying rows);
    ///   else PostgreSQL refuses it, as the schema says (`new` with a key typed).
    func insertStatement(_ values: [String: FieldValue], like: [String: FieldValue] = [:],
                         overridingIdentity: Bool = false, ifKeyIsFree: Bool = false) throws -> (sql: String, parameters: [String?]) {
        let values = try columnValues(values, over: [:])
        let given = columns.filter { name in
            guard let value = values[name], let column = table.column(name), !column.isGenerated else { return false }
            // A view's columns show no default, though its table's may have one (a serial key):
            // a NULL left out is the same row where there is none, and the table's default where there is.
            if table.isView, case .null = value { return false }
            guard value == .null, column.hasDefault else { return true }
            // A NULL is left for the server to fill in, unless someone gave it where the column
            // takes one (no key, no sequence): an import's explicit null, or a person's clearing
            // of a field that starts at the column's DEFAULT (`new t n:=null`), as SQLite's mapping keeps them.
            guard !column.isNotNull, !column.takesSequence, !keyColumns.contains(name) else { return false }
            if case .null? = like[name] { return true }
            guard let field = form.field(name) else { return false }
            return field.defaultValue != .null
        }
        let quotedTable = quoteIdentifier(table.name)
        let overriding = overridingIdentity && given.contains { table.column($0)?.isAlwaysIdentity == true }
            ? " OVERRIDING SYSTEM VALUE" : ""
        // With `ifKeyIsFree`, a row whose key is stored is not inserted (no row returned).
        let conflict = ifKeyIsFree ? " ON CONFLICT (\(keyColumns.map(quoteIdentifier).joined(separator: ", "))) DO NOTHING" : ""
        let sql = given.isEmpty
            ? "INSERT INTO \(quotedTable) DEFAULT VALUES\(conflict) RETURNING \(returning)"
            : "INSERT INTO \(quotedTable) (\(given.map(quoteIdentifier).joined(separator: ", ")))\(overriding) VALUES ("
                + given.indices.map { "$\($0 + 1)" }.joined(separator: ", ") + ")\(conflict) RETURNING \(returning)"
        return (sql, given.map { parameter($0, values[$0] ?? .null, like: like[$0]) })
    }

    /// The UPDATE writing `changes` (and bumping the version column) to the
    /// record with `key`, returning the row; nil when there is nothing to write.
    /// A change of a JSON path is written into its column's document as
    /// `current` holds it, so keys no field names are kept.
    func updateStatement(_ changes: [String: FieldValue], key: [String?], over current: [String: FieldValue] = [:],
                         like: [String: FieldValue] = [:]) throws -> (sql: String, parameters: [String?])? {
        let changes = try columnValues(changes, over: current)
        let written = columns.filter { changes[$0] != nil && table.column($0)?.isGenerated != true }
        var assignments = written.enumerated().map { "\(quoteIdentifier($1)) = $\($0 + 1)" }
        if let version = form.versionColumn {
            assignments.append("\(quoteIdentifier(version)) = COALESCE(\(quoteIdentifier(version)), 0) + 1")
        }
        guard !assignments.isEmpty else { return nil }
        let whereKey = keyColumns.enumerated()
            .map { "\(quoteIdentifier($1)) = $\(written.count + $0 + 1)" }.joined(separator: " AND ")
        let sql = "UPDATE \(quoteIdentifier(table.name)) SET \(assignments.joined(separator: ", ")) "
            + "WHERE \(whereKey) RETURNING \(returning)"
        return (sql, written.map { parameter($0, changes[$0]!, like: like[$0]) } + key)
    }

    /// The parameter text for a column's value: `like`'s text as it arrived
    /// when it reads as the same model value (`12.50` in a `numeric`, a
    /// timestamp's microseconds, which the model value rounds), else the value encoded.
    func parameter(_ column: String, _ value: FieldValue, like: FieldValue?) -> String? {
        let coding = coding(column)
        if case .text(let text)? = like, coding.decode(text) == value { return text }
        return coding.encode(value)
    }

    /// The record in one row of a result of `columns`.
    /// Read straight into the form's slots (issue 14); a form reaching into
    /// JSON documents reads its paths out of the documents by key.
    func record(_ result: PostgresResult, row: Int) -> StoredRecord {
        var values = RecordValues(layout: layout)
        for index in columns.indices {
            let value = columnCodings[index].decode(result.text(row: row, column: index))
            if let slot = columnSlots[index] { values.slots[slot] = value } else { values.others[columns[index]] = value }
        }
        if !jsonPaths.isEmpty {
            var byKey = values.dictionary
            readPaths(into: &byKey)
            values = RecordValues(byKey, layout: layout)
        }
        let key = RecordKey(columns: keyColumns, values: keyColumns.map { values[$0] ?? .null })
        let version = form.versionColumn.flatMap { values[$0]?.intValue }
        return StoredRecord(key: key, slotValues: values, version: version)
    }
}

/// `"name"`, with inner quotes doubled: PostgreSQL's quoting, as SQLite's.
func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacing("\"", with: "\"\"") + "\""
}

extension PostgresTableMapping {
    /// Throws when the server stored a number or a time other than the one
    /// written: a `numeric(10,2)` rounds 3.456 to 3.46, a `real` 16777217 to
    /// 16777216, a `timestamp(0)` drops a fraction of a second. Thrown inside
    /// the write's transaction, so nothing is kept: what is written is what
    /// was given, as on SQLite (docs/fidelity.md). `saved` is the row the
    /// write returned; text, bools and documents the server only spells its
    /// own way (`jsonb`, `uuid`) are not compared.
    func checkStoredAsWritten(_ written: [String: FieldValue], saved: StoredRecord) throws {
        for (field, given) in written where given != .null && jsonPaths[field] == nil {
            // A `bytea` holds bytes only: text that is no hex (which the field leaves as text, as a BLOB
            // column in SQLite may hold it) was read by the server as its escape format (`abc`: 61 62 63).
            if table.column(field)?.typeName == "bytea", case .text = given {
                throw PostgresStoreError(reason: .notHeld, message: "\(field): \(RecordKey.text(of: given)) is no bytes: "
                                         + "a bytea holds bytes, typed in hex as x'CAFE' (in JSON: {\"$base64\": …}): nothing was saved")
            }
            // What a trigger stored is its own: only a column's rounding is refused (a `new` whose
            // version a trigger bumps was refused as "0 would be stored as 1").
            if table.rewritesRows { continue }
            // `money` is text to the form (`$12.34`, as the locale writes it): its amount is compared.
            if table.column(field)?.typeName == "money", case .text(let typed) = given, case .text(let held)? = saved.values[field],
               let amount = Self.moneyAmount(typed), let stored = Self.moneyAmount(held), amount != stored {
                throw PostgresStoreError.notHeld(field, given: given, stored: .text(held))
            }
            guard let kind = coding(field).kind, kind == .integer || kind == .decimal || kind.isDateLike,
                  let stored = saved.values[field] else { continue }
            guard Self.holdsSame(given, stored) else { throw PostgresStoreError.notHeld(field, given: given, stored: stored) }
        }
    }

    /// The amount of a `money` text as typed or as the server writes it
    /// (`$1,234.56`, `-1.999`, `1.234,56 €`): its digits, a minus sign, and the
    /// last of `.` or `,` as the decimal point where the two both appear, else
    /// a lone one (a lone `,` followed by three digits groups thousands).
    /// `nil` for text with no digits.
    static func moneyAmount(_ text: String) -> Decimal? {
        let kept = text.filter { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
        guard kept.contains(where: \.isNumber) else { return nil }
        let negative = text.contains("-") || text.contains("(")
        var point: Character?
        if kept.contains("."), kept.contains(",") {
            point = kept.last { $0 == "." || $0 == "," }
        } else if let only = kept.first(where: { $0 == "." || $0 == "," }), kept.filter({ $0 == only }).count == 1 {
            let digitsAfter = kept.split(separator: only, omittingEmptySubsequences: false).last?.count ?? 0
            point = only == "." || digitsAfter != 3 ? only : nil
        }
        var number = ""
        for character in kept {
            if character.isNumber { number.append(character) } else if character == point { number.append(".") }
        }
        return Decimal(string: (negative ? "-" : "") + number, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// Whether `stored` is `given` as a number or an instant; true where
    /// either is text (a `numeric` read with every digit), which is not judged.
    private static func holdsSame(_ given: FieldValue, _ stored: FieldValue) -> Bool {
        switch (given, stored) {
        case (.date(let a), .date(let b)):
            // To the microsecond, which both hold; a Date's double may differ below it.
            return abs(a.timeIntervalSince1970 - b.timeIntervalSince1970) < 0.000_000_5
        case (.int(let a), .int(let b)):
            return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            return Int64(exactly: b) == a
        case (.double(let a), .double(let b)):
            return a == b || (a.isNaN && b.isNaN)
        default:
            return true
        }
    }
}

extension PostgresTableMapping {
    /// A refusal of a write of `values` said by what was refused, once the
    /// server said no: a foreign key's (`missingReference(in:_:)`), or a
    /// CHECK's, of the table or of a column's domain, with its expression and,
    /// where it reads one written column, that column first
    /// (`qty: new row for relation "ck" violates check constraint "ck_qty_check": CHECK ((qty > 0))`).
    /// The server's message alone named neither. Nil for another error.
    func namedRefusal(_ error: PostgresError, of values: [String: FieldValue], _ conn: PostgresConnection) throws -> (any Error)? {
        if error.isForeignKeyViolation { return try missingReference(in: values, conn) ?? partialKey(error, of: values, conn) }
        if error.isUniqueViolation, let constraint = error.constraint {
            // The index's columns (a UNIQUE or PRIMARY KEY constraint is named as its index): the one written
            // names the field, as SQLite's `UNIQUE constraint failed: t.name` does. The detail line, which
            // quotes the value, is still left out.
            let result = try conn.execute("""
                SELECT pg_catalog.array_to_string(ARRAY(
                           SELECT a.attname FROM pg_catalog.pg_index i
                           JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
                           WHERE i.indexrelid = pg_catalog.to_regclass(pg_catalog.quote_ident($1))
                             AND i.indrelid = pg_catalog.to_regclass(pg_catalog.quote_ident($2))
                           ORDER BY a.attnum), E'\\x1f')
                """, [constraint, table.name])
            let columns = (result.rowCount == 1 ? result.text(row: 0, column: 0) ?? "" : "").split(separator: "\u{1f}").map(String.init)
            let written = columns.filter { values[$0] != nil }
            guard written.count == 1 else { return nil }
            return PostgresError(sqlState: error.sqlState, message: "\(written[0]): \(error.message)",
                                 constraint: constraint, sql: error.sql)
        }
        guard error.isCheckViolation, let constraint = error.constraint else { return nil }
        // A table's constraint reads its `conkey` columns; a domain's, the columns of its type.
        let result = try conn.execute("""
            SELECT pg_catalog.pg_get_constraintdef(c.oid), pg_catalog.array_to_string(ARRAY(
                       SELECT a.attname FROM pg_catalog.pg_attribute a
                       WHERE a.attrelid = pg_catalog.to_regclass(pg_catalog.quote_ident($2)) AND a.attnum > 0
                         AND NOT a.attisdropped
                         AND (a.attnum = ANY (c.conkey) AND c.conrelid = a.attrelid OR a.atttypid = c.contypid)
                       ORDER BY a.attnum), E'\\x1f')
            FROM pg_catalog.pg_constraint c
            WHERE c.conname = $1 AND c.contype = 'c'
              AND (c.conrelid = pg_catalog.to_regclass(pg_catalog.quote_ident($2)) OR c.contypid <> 0)
            ORDER BY c.contypid <> 0
            LIMIT 1
            """, [constraint, table.name])
        guard result.rowCount == 1, let definition = result.text(row: 0, column: 0) else { return nil }
        let columns = (result.text(row: 0, column: 1) ?? "").split(separator: "\u{1f}").map(String.init)
        let written = columns.filter { values[$0] != nil }
        let field = written.count == 1 ? written[0] + ": " : ""
        return PostgresError(sqlState: error.sqlState, message: "\(field)\(error.message): \(definition)",
                             constraint: constraint, sql: error.sql)
    }

    /// After a `MATCH FULL` foreign key refused a write of `values` giving
    /// NULL for some of its columns: the refusal naming them, where the
    /// server's message named only the constraint. Such a key refuses a
    /// NULL only beside a value (a key given in part; all NULL refers to no
    /// row), so a NULL written is the reason. Nil for another refusal.
    private func partialKey(_ error: PostgresError, of values: [String: FieldValue], _ conn: PostgresConnection) throws -> PostgresError? {
        guard let name = error.constraint,
              let key = try conn.constraints(of: table.name).foreignKeys.first(where: { $0.name == name && $0.matchesFull }),
              key.columns.contains(where: { values[$0] == .null }) else { return nil }
        let columns = key.columns.joined(separator: ", ")
        return PostgresError(sqlState: error.sqlState, message: "\(columns): a reference to '\(key.shownDestination)' gives "
                                 + "all of \(columns) or none (MATCH FULL); some are empty and some are not",
                             constraint: name, sql: error.sql)
    }

    /// After a foreign key refused a write of `values`: the refusal naming
    /// the fields, the table and the values, in SQLite's store's words
    /// (`FormStoreError.missingReference`), for the first key whose values
    /// (all given, none NULL) name no row; nil when none does, and the
    /// server's message is all there is.
    func missingReference(in values: [String: FieldValue], _ conn: PostgresConnection) throws -> FormStoreError? {
        for key in try conn.constraints(of: table.name).foreignKeys where key.destinationColumns.count == key.columns.count {
            // MATCH SIMPLE: a NULL in any column satisfies the key.
            let given = key.columns.compactMap { values[$0] }
            guard given.count == key.columns.count, !given.contains(.null) else { continue }
            let sql = "SELECT 1 FROM \(key.destinationRelation) WHERE "
                + key.destinationColumns.enumerated().map { "\(quoteIdentifier($1)) = $\($0 + 1)" }.joined(separator: " AND ") + " LIMIT 1"
            guard try conn.execute(sql, zip(key.columns, given).map { coding($0).encode($1) }).rowCount == 0 else { continue }
            return FormStoreError.missingReference(columns: key.columns, values: given, table: key.shownDestination,
                                                   targets: key.destinationColumns)
        }
        return nil
    }
}

extension PostgresTableMapping {
    /// `changes` without those to a `jsonb` column that hold the document
    /// the row holds, in another spelling (spacing, key order): the server
    /// keeps a jsonb document in one form, so writing it would change nothing
    /// but the history and the row's triggers. Compared by the server (`=`
    /// on jsonb), only when such a column is changed: one query for them all.
    func droppingSameDocuments(_ changes: [String: FieldValue], stored: PostgresResult,
                               _ conn: PostgresConnection) throws -> [String: FieldValue] {
        let documents = changes.keys.sorted().filter { table.column($0)?.typeName == "jsonb" }
        guard !documents.isEmpty else { return changes }
        let texts = storedTexts(stored, row: 0)
        var parameters: [String?] = []
        var comparisons: [String] = []
        for column in documents {
            guard let held = texts[column] ?? nil, case .text = changes[column] ?? .null else {
                comparisons.append("false")
                continue
            }
            parameters += [coding(column).encode(changes[column]!), held]
            comparisons.append("$\(parameters.count - 1)::jsonb = $\(parameters.count)::jsonb")
        }
        let result = try conn.execute("SELECT " + comparisons.joined(separator: ", "), parameters)
        var kept = changes
        for (index, column) in documents.enumerated() where result.text(row: 0, column: index) == "t" {
            kept[column] = nil
        }
        return kept
    }
}

extension PostgresTableMapping {
    /// The row a write left, from what it returned: for a view whose
    /// `INSTEAD OF` trigger writes the tables beneath, `RETURNING` gives the
    /// row the trigger returned (the values as given), not what it stored
    /// (`upper(name)`), so the row is read again by the key it returned.
    /// Anything else returns what it stored (a `BEFORE` trigger's changes too).
    func rowLeft(by result: PostgresResult, _ conn: PostgresConnection) throws -> PostgresResult {
        // A view without a key (a spec names none) has no row to find again: what it returned is all there is.
        guard table.isView, table.rewritesRows, result.rowCount == 1, !keyColumns.isEmpty else { return result }
        let again = try conn.execute(selectByKeySQL, try keyParameters(record(result, row: 0).key))
        return again.rowCount == 1 ? again : result
    }
}
