public import FormCore
public import FormStorage
public import FoundationEssentials

/// `RecordStore` over PostgreSQL: what the `formstore` command and server use.
extension PostgresFormStore: RecordStore {
    public func keyColumns(of form: Form) throws -> [RecordKeyColumn] {
        let mapping = try mapping(for: form)
        return mapping.keyColumns.map { name in
            let column = mapping.table.column(name)
            return RecordKeyColumn(name: name, holdsIntegers: PostgresTypeFamily(typeName: column?.typeName ?? "text") == .integer,
                                   mustBeGiven: !(column?.hasDefault ?? false))
        }
    }

    public func emptyTextColumns(of form: Form) throws -> Set<String> {
        let columns = try mapping(for: form).table.columns
        return Set(columns.filter { $0.isNotNull || $0.defaultSQL?.hasPrefix("''") == true }.map(\.name))
    }

    public func untypedColumns(of form: Form) throws -> Set<String> { [] }

    /// None: PostgreSQL refuses an empty identifier.
    public func unnamedColumnCount(of form: Form) throws -> Int { 0 }

    /// Reads the chosen rows in one statement, each handed to `body` as it
    /// arrives (single-row mode): memory stays flat however many there are.
    /// The statement holds one pool connection until it ends, so a `body`
    /// that uses the store again (a label lookup) needs a pool of two or more.
    public func forEachRecord(_ form: Form, query: RecordQuery, _ body: (StoredRecord) throws -> Void) throws {
        let mapping = try mapping(for: form)
        let statement = try PostgresQuerySQL(mapping: mapping).statement(selecting: mapping.columns, query)
        try pool.read { conn in
            try conn.stream(statement.sql, statement.parameters) { row in try body(mapping.record(row, row: 0)) }
        }
    }

    public func forEachExportedRow(_ form: Form, columns: [String], query: RecordQuery,
                                   _ body: ([FieldValue]) throws -> Void) throws {
        let mapping = try mapping(for: form)
        let statement = try PostgresQuerySQL(mapping: mapping).statement(selecting: columns, query)
        let codings = columns.map(mapping.coding)
        var values = [FieldValue](repeating: .null, count: columns.count)
        try pool.read { conn in
            try conn.stream(statement.sql, statement.parameters) { row in
                for index in columns.indices { values[index] = codings[index].exported(row.text(row: 0, column: index)) }
                try body(values)
            }
        }
    }

    public func exportedGroupRows(_ form: Form, key: RecordKey) throws -> [String: [[String: FieldValue]]] {
        let mapping = try mapping(for: form)
        let children = try childMappings(form, parent: mapping)
        return try pool.read { conn in
            var groups: [String: [[String: FieldValue]]] = [:]
            for child in children { groups[child.group.key] = try child.exportedRows(of: key, conn) }
            return groups
        }
    }

    /// One transaction for the whole batch. A serialization failure or a
    /// deadlock is not retried (the rows were read from a stream once): it is thrown.
    public func writeRecords<T>(_ form: Form, commit: Bool, attribution: ChangeAttribution?,
                                _ body: (any RecordWriting) throws -> T) throws -> T {
        let mapping = try mapping(for: form)
        let history = attribution.map { historyWriter(mapping, $0) }
        let children = try childMappings(form, parent: mapping)
        var ran = false
        var result: T?
        do {
            try pool.write { conn in
                guard !ran else {
                    throw PostgresError(sqlState: "40001", message: "another transaction held the rows this batch wrote; "
                                        + "nothing was written, run it again")
                }
                ran = true
                let batch = PostgresRecordBatch(mapping: mapping, connection: conn, history: history, children: children)
                result = try body(batch)
                if !commit { throw RolledBack() }
                try batch.advanceSequences()
            }
        } catch is RolledBack {}
        return result!
    }

    public func initializeOwnTables() throws -> [String] {
        defer { catalog.clear() }
        return try PostgresMigrator.formStore.migrate(pool).map(\.fileName)
    }

    /// Applies a folder's migrations; the catalog facts the store kept are read again after.
    public func migrate(with migrator: Migrator) throws -> [String] {
        defer { catalog.clear() }
        return try PostgresMigrator(migrator).migrate(pool).map(\.fileName)
    }
}

/// Ends a dry run's transaction without committing it.
private struct RolledBack: Error {}

extension PostgresTableMapping {
    /// The date `value` holds as `field`'s column may store it; nil when it holds none.
    func storedDate(_ value: FieldValue, field: String) -> Date? {
        switch value {
        case .date(let date): return date
        case .text(let text):
            if case .date(let date) = coding(field).decode(text) { return date }
            return nil
        default: return nil
        }
    }
}

extension PostgresFormStore: StoredDateReading {
    /// A date given to a session's JSON door as `field`'s column may store it.
    public func storedDate(_ value: FieldValue, field: String, group: String?, of form: Form) -> Date? {
        guard let mapping = try? mapping(for: form) else { return nil }
        guard let group else { return mapping.storedDate(value, field: field) }
        let child = try? childMappings(form, parent: mapping).first { $0.group.key == group }
        return child?.mapping.storedDate(value, field: field)
    }
}
