import FormBasics
public import FormCore
public import FoundationEssentials

/// `RecordStore` over SQLite.
extension FormStore: RecordStore {
    public func tableNames() throws -> [String] {
        try database.read { try $0.tableNames() }
    }

    public func viewNames() throws -> Set<String> {
        Set(try database.read { try $0.fetchAll("SELECT name FROM sqlite_schema WHERE type = 'view'") }
            .map { try $0.value(at: 0, as: String.self) })
    }

    public func inferredForm(table: String) throws -> Form? {
        try database.read { conn -> Form? in
            guard try conn.tableNames().contains(table) else { return nil }
            return try FormInference.readingDatesAsStored(FormInference.form(for: try conn.tableInfo(table)), conn)
        }
    }

    public func readingDates(of form: Form, asIn incoming: (RowGroup?, String) throws -> [DatabaseValue]) throws -> Form {
        try database.read { conn in try FormInference.readingDatesAsIncoming(form, conn, incoming) }
    }

    public func keyColumns(of form: Form) throws -> [RecordKeyColumn] {
        let mapping = try mapping(for: form)
        return mapping.keyColumns.map { name in
            let column = mapping.table.column(name)
            // Only a declared key that is not the rowid may be left NULL by SQLite and never found again.
            var mustBeGiven = false
            if case .columns(let columns) = mapping.table.primaryKey, columns.contains(name) {
                mustBeGiven = column?.defaultValueSQL == nil
            }
            // A key column that is no column of the table is the hidden rowid.
            return RecordKeyColumn(name: name, holdsIntegers: (column?.affinity ?? .integer) == .integer, mustBeGiven: mustBeGiven,
                                   holdsNull: !mapping.table.isView && TableMapping.keyHoldsNull(name, of: mapping.table))
        }
    }

    public func unnamedColumnCount(of form: Form) throws -> Int {
        try mapping(for: form).table.columns.count { $0.name.isEmpty }
    }

    public func emptyTextColumns(of form: Form) throws -> Set<String> {
        var names: Set<String> = []
        for column in try mapping(for: form).table.columns {
            let defaultSQL = column.defaultValueSQL?.trimmingSpaces()
            if column.isNotNull || defaultSQL == "''" || defaultSQL == "('')" { names.insert(column.name) }
        }
        return names
    }

    public func untypedColumns(of form: Form) throws -> Set<String> {
        try database.read { conn in
            let tables = try conn.tableNames()
            guard tables.contains(form.tableName) else { return [] }
            var untyped = Set(try conn.tableInfo(form.tableName).columns.filter(\.isUntyped).map(\.name))
            // A group's row fields as `group.field`.
            for group in form.groups where tables.contains(group.tableName) {
                for column in try conn.tableInfo(group.tableName).columns where column.isUntyped {
                    untyped.insert("\(group.key).\(column.name)")
                }
            }
            return untyped
        }
    }

    public func forEachExportedRow(_ form: Form, columns: [String], query: RecordQuery,
                                   _ body: ([FieldValue]) throws -> Void) throws {
        var row = [FieldValue](repeating: .null, count: columns.count)
        try forEachStoredRow(form, columns: columns, query: query) { stored in
            for index in stored.indices { row[index] = FieldValue(stored[index]) }
            try body(row)
        }
    }

    public func exportedGroupRows(_ form: Form, key: RecordKey) throws -> [String: [[String: FieldValue]]] {
        let mapping = try mapping(for: form)
        let children = try childMappings(form, parent: mapping)
        return try database.read { conn in
            try Self.readRows(children, of: key, conn) { child, statement in
                child.mapping.storedValues(from: statement).mapValues(FieldValue.init)
            }
        }
    }

    public func writeRecords<T>(_ form: Form, commit: Bool, attribution: ChangeAttribution?,
                                _ body: (any RecordWriting) throws -> T) throws -> T {
        try writeBatch(form, commit: commit, attribution: attribution) { try body($0) }
    }

    public func initializeOwnTables() throws -> [String] {
        try initialize().map(\.fileName)
    }

    public func migrate(with migrator: Migrator) throws -> [String] {
        try migrator.migrate(database).map(\.fileName)
    }
}

extension RecordBatch: RecordWriting {
    public var computedColumns: Set<String> { Set(mapping.table.columns.filter(\.isGenerated).map(\.name)) }

    public func storedDate(_ value: FieldValue, field: String) -> Date? {
        mapping.storedDate(value, field: field)
    }
}

extension TableMapping {
    /// The date `value` holds as `field`'s column may store it (`StorageCoding.decode`); nil when it holds none.
    func storedDate(_ value: FieldValue, field: String) -> Date? {
        guard let coding = codings[field], case .date(let date) = coding.decode(DatabaseValue(value)) else { return nil }
        return date
    }
}

extension FormStore: StoredDateReading {
    /// A date given to a session's JSON door as `field`'s column may store it.
    public func storedDate(_ value: FieldValue, field: String, group: String?, of form: Form) -> Date? {
        guard let mapping = try? mapping(for: form) else { return nil }
        guard let group else { return mapping.storedDate(value, field: field) }
        let child = try? childMappings(form, parent: mapping).first { $0.group.key == group }
        return child?.mapping.storedDate(value, field: field)
    }
}
