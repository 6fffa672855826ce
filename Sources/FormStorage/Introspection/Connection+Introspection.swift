import CSQLite
import FormBasics
import FoundationEssentials

extension Connection {
    /// The names of the user's tables and views, sorted; SQLite's own
    /// (`sqlite_*`) and FormStore's (`formstore_*`) are left out unless asked for.
    ///
    /// - parameter includingViews: false for the tables alone, what holds rows and
    ///   foreign keys of its own. A view is described by compiling its query, which
    ///   fails where it calls a function this SQLite lacks (`sha3()`): walking every
    ///   table's keys, one such view broke `--children` and every delete.
    /// - throws: `DatabaseError`.
    public func tableNames(includingInternal: Bool = false, includingViews: Bool = true) throws -> [String] {
        // Whether each is a virtual table comes in the same statement: a second
        // one, prepared on every start, cost a cold `show` 1 % (issue 14).
        let rows = try fetchAll("""
            SELECT name, sql LIKE 'CREATE VIRTUAL TABLE%' FROM sqlite_schema
            WHERE type IN ('table', \(includingViews ? "'view'" : "'table'")) ORDER BY name
            """)
        let names = try rows.map { try $0.value(at: 0, as: String.self) }
        guard !includingInternal else { return names }
        let shadows = try rows.contains { try $0.value(at: 1, as: Bool?.self) == true } ? shadowTableNames() : []
        return names.filter { name in
            let lowered = name.lowercased()
            return !lowered.hasPrefix("sqlite_") && !lowered.hasPrefix("formstore_") && !shadows.contains(name)
        }
    }

    /// The shadow tables of the virtual tables (`docs_data` of an FTS5 table
    /// `docs`): their own storage, which only they may change (defensive
    /// mode refuses any other write) and nobody edits row by row. Internal,
    /// as SQLite's own tables are. SQLite names them from 3.37 on; before, none.
    private func shadowTableNames() throws -> Set<String> {
        guard SQLiteLibrary.versionNumber >= 3_037_000 else { return [] }
        return Set(try fetchAll("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'")
            .map { try $0.value(at: 0, as: String.self) })
    }

    /// True when a table or view of that name exists (compared without regard to case, as SQLite does).
    ///
    /// - throws: `DatabaseError`.
    public func tableExists(_ name: String) throws -> Bool {
        try fetchOne("SELECT 1 FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE",
                     [name]) != nil
    }

    /// Describes a table or a view: columns, primary key, foreign keys,
    /// `WITHOUT ROWID` and `CHECK (column IN (...))` value lists. A view has no
    /// key; it is writable when it has `INSTEAD OF` triggers.
    ///
    /// ```swift
    /// let info = try conn.tableInfo("person")
    /// ```
    ///
    /// Read once per schema version (`PRAGMA main.schema_version`, which any
    /// change to the schema moves on): a command asks for its table's columns
    /// to infer the form, map it and find its pickers, and reading them cost
    /// about 0.45 M instructions each time (docs/binary.md).
    ///
    /// - throws: `DatabaseError` (`SQLITE_ERROR`, "no such table") when the table does not exist.
    public func tableInfo(_ name: String) throws -> TableInfo {
        let version = try schemaVersion()
        if let described = tablesDescribed[name], described.schemaVersion == version { return described.info }
        let info = try describeTable(name)
        tablesDescribed[name] = (version, info)
        return info
    }

    /// Forgets the tables described: a rollback takes the schema version back,
    /// and a later change could bring it to the same number with another schema.
    func forgetDescribedTables() {
        tablesDescribed.removeAll()
    }

    /// The schema version of the main database (or of the temporary one):
    /// it changes with every change to that schema.
    ///
    /// - throws: `DatabaseError`.
    func schemaVersion(ofTemporary temporary: Bool = false) throws -> Int64 {
        // Constant texts: one built per call was half the cost of asking.
        try schemaVersion(of: temporary ? "PRAGMA temp.schema_version" : Self.mainSchemaVersion)
    }

    /// The schema version `pragma` (`PRAGMA <schema>.schema_version`, a text
    /// made once) reads.
    ///
    /// - throws: `DatabaseError`, such as when that schema is not attached.
    func schemaVersion(of pragma: String) throws -> Int64 {
        let isMain = pragma == Self.mainSchemaVersion
        if isMain, case .read(let version) = heldMainSchemaVersion { return version }
        let statement = try cachedStatement(pragma)
        defer { statement.reset() }
        let version = try statement.step() ? statement.int64(at: 0) : 0
        if isMain, case .unread = heldMainSchemaVersion { heldMainSchemaVersion = .read(version) }
        return version
    }

    static let mainSchemaVersion = "PRAGMA main.schema_version"

    /// Runs `body` with `main`'s schema version read once, however often it
    /// is asked: for the statements of one save inside its write transaction,
    /// where nobody else can change the schema and `body` runs no DDL. A save
    /// asked for it twice or three times (whether any trigger exists, the
    /// history's table, the draft's), about 2k instructions each (issue 14).
    /// Inside another call it adds nothing.
    func holdingMainSchemaVersion<T>(_ body: () throws -> T) rethrows -> T {
        guard case .notHeld = heldMainSchemaVersion else { return try body() }
        heldMainSchemaVersion = .unread
        defer { heldMainSchemaVersion = .notHeld }
        return try body()
    }

    private func describeTable(_ name: String) throws -> TableInfo {
        guard let schemaRow = try fetchOne(
            "SELECT name, sql, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE",
            [name]) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(name)")
        }
        let tableName: String = try schemaRow.value(at: 0)
        let sql = try schemaRow.value(at: 1, as: String?.self) ?? ""
        let isView = try schemaRow.value(at: 2, as: String.self) == "view"
        let parsed = isView ? CreateTableSQL("") : CreateTableSQL(sql)

        // cid, name, type, notnull, dflt_value, pk, hidden; in column order.
        var columns: [ColumnInfo] = []
        for row in try pragmaRows("table_xinfo", tableName) where try row.value(at: 6, as: Int.self) != 1 {
            let columnName: String = try row.value(at: 1)
            let hidden: Int = try row.value(at: 6)
            var column = ColumnInfo(
                name: columnName,
                declaredType: try row.value(at: 2, as: String?.self) ?? "",
                isNotNull: try row.value(at: 3, as: Bool.self),
                defaultValueSQL: try row.value(at: 4, as: String?.self),
                primaryKeyPosition: try row.value(at: 5, as: Int.self),
                isGenerated: hidden == 2 || hidden == 3,
                allowedValues: parsed.allowedValues.first {
                    $0.key.equalsIgnoringCase(columnName)
                }?.value)
            // A STRICT table's ANY column has no affinity: it holds what it is given, as an untyped column does.
            if parsed.isStrict && column.declaredType.uppercased() == "ANY" { column.affinity = .blob }
            columns.append(column)
        }

        // seq, name, unique, origin, partial: read once for the key and the unique keys.
        let indexes = isView ? [] : try pragmaRows("index_list", tableName)
        let keyColumns = columns.filter(\.isPrimaryKey).sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
            .map(\.name)
        let primaryKey: PrimaryKey
        if isView {
            primaryKey = .columns([])
        } else if keyColumns.isEmpty {
            primaryKey = .hiddenRowID
        } else if !parsed.isWithoutRowID, keyColumns.count == 1,
                  try !indexes.contains(where: { try $0.value(at: 3, as: String.self) == "pk" }) {
            // Only an INTEGER PRIMARY KEY aliases the rowid; any other key gets its own index.
            primaryKey = .rowIDAlias(keyColumns[0])
        } else {
            primaryKey = .columns(keyColumns)
        }

        var info = TableInfo(name: tableName, columns: columns, primaryKey: primaryKey,
                             isWithoutRowID: parsed.isWithoutRowID,
                             foreignKeys: isView ? [] : try foreignKeys(tableName), sql: sql)
        info.uniqueKeys = try uniqueKeys(indexes)
        if isView {
            info.kind = try fetchOne("""
                SELECT 1 FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE
                AND sql LIKE '%INSTEAD%OF%'
                """, [tableName]) == nil ? .view : .writableView
        }
        return info
    }

    /// The rows of `PRAGMA name("argument")`, the argument quoted as every
    /// identifier is. A pragma compiles without the query planner that
    /// `SELECT … FROM pragma_name(?)` goes through (about five times the
    /// instructions: describing a table was most of a cold `show`'s SQL,
    /// docs/binary.md), and is prepared for this call only: its text names
    /// the table, and the statement cache would keep one per table.
    private func pragmaRows(_ name: String, _ argument: String) throws -> [Row] {
        try makeStatement("PRAGMA \(name)(\(quoteIdentifier(argument)))").fetchAll([])
    }

    /// The column sets of the table's UNIQUE indexes and constraints (partial
    /// indexes left out), from its `index_list` rows.
    private func uniqueKeys(_ indexes: [Row]) throws -> [[String]] {
        try indexes.filter { try $0.value(at: 2, as: Int.self) == 1 && $0.value(at: 4, as: Int.self) == 0 }
            .map { index in
                // seqno, cid, name; in the index's order.
                try pragmaRows("index_info", try index.value(at: 1, as: String.self))
                    .map { try $0.value(at: 2, as: String?.self) ?? "" }
            }
    }

    private func foreignKeys(_ table: String) throws -> [ForeignKey] {
        // id, seq, table, from, to, on_update, on_delete, match; by id, then seq.
        var keys: [(id: Int, key: ForeignKey, hasNamedDestination: Bool)] = []
        for row in try pragmaRows("foreign_key_list", table) {
            let id: Int = try row.value(at: 0)
            let from: String = try row.value(at: 3)
            let to = try row.value(at: 4, as: String?.self)
            if let last = keys.indices.last, keys[last].id == id {
                keys[last].key.columns.append(from)
                if let to { keys[last].key.destinationColumns.append(to) }
            } else {
                keys.append((id, ForeignKey(destinationTable: try row.value(at: 2), columns: [from],
                                            destinationColumns: to.map { [$0] } ?? [],
                                            onUpdate: try row.value(at: 5), onDelete: try row.value(at: 6)),
                             to != nil))
            }
        }
        return try keys.map { entry in
            guard !entry.hasNamedDestination else { return entry.key }
            // `REFERENCES parent` without columns means the parent's primary key.
            var key = entry.key
            // cid, name, type, notnull, dflt_value, pk.
            key.destinationColumns = try pragmaRows("table_info", key.destinationTable)
                .filter { try $0.value(at: 5, as: Int.self) > 0 }
                .sorted { try $0.value(at: 5, as: Int.self) < $1.value(at: 5, as: Int.self) }
                .map { try $0.value(at: 1, as: String.self) }
            return key
        }
    }
}

extension Connection {
    /// The collating sequence of a table's column (`BINARY`, `NOCASE`,
    /// `RTRIM`, or an application's), as its declaration gives it: what a
    /// foreign key referring to the column compares by. `BINARY`, SQLite's
    /// default, where it cannot be told (a view's column, the hidden rowid).
    public func collation(of column: String, in table: String) -> String {
        var collation: UnsafePointer<CChar>?
        let code = sqlite3_table_column_metadata(handle.pointer, "main", table, column, nil, &collation, nil, nil, nil)
        guard code == SQLITE_OK, let collation else { return "BINARY" }
        return String(cString: collation)
    }
}
