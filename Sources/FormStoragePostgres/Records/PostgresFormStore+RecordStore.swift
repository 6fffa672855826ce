import FormCore
import FormStorage

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

    /// Reads the chosen rows in one statement (held in memory, unlike SQLite's stream).
    public func forEachRecord(_ form: Form, query: RecordQuery, _ body: (StoredRecord) throws -> Void) throws {
        let mapping = try mapping(for: form)
        let statement = try PostgresQuerySQL(mapping: mapping).statement(selecting: mapping.columns, query)
        let result = try pool.read { try $0.execute(statement.sql, statement.parameters) }
        for row in 0..<result.rowCount { try body(mapping.record(result, row: row)) }
    }

    public func forEachExportedRow(_ form: Form, columns: [String], query: RecordQuery,
                                   _ body: ([FieldValue]) throws -> Void) throws {
        let mapping = try mapping(for: form)
        let statement = try PostgresQuerySQL(mapping: mapping).statement(selecting: columns, query)
        let result = try pool.read { try $0.execute(statement.sql, statement.parameters) }
        let codings = columns.map(mapping.coding)
        var values = [FieldValue](repeating: .null, count: columns.count)
        for row in 0..<result.rowCount {
            for index in columns.indices { values[index] = codings[index].exported(result.text(row: row, column: index)) }
            try body(values)
        }
    }

    /// One transaction for the whole batch. A serialization failure or a
    /// deadlock is not retried (the rows were read from a stream once): it is thrown.
    public func writeRecords<T>(_ form: Form, commit: Bool, attribution: ChangeAttribution?,
                                _ body: (any RecordWriting) throws -> T) throws -> T {
        let mapping = try mapping(for: form)
        let history = attribution.map { historyWriter(mapping, $0) }
        var ran = false
        var result: T?
        do {
            try pool.write { conn in
                guard !ran else {
                    throw PostgresError(sqlState: "40001", message: "another transaction held the rows this batch wrote; "
                                        + "nothing was written, run it again")
                }
                ran = true
                result = try body(PostgresRecordBatch(mapping: mapping, connection: conn, history: history))
                if !commit { throw RolledBack() }
            }
        } catch is RolledBack {}
        return result!
    }

    public func initializeOwnTables() throws -> [String] {
        try PostgresMigrator.formStore.migrate(pool).map(\.fileName)
    }

    public func migrate(with migrator: Migrator) throws -> [String] {
        try PostgresMigrator(migrator).migrate(pool).map(\.fileName)
    }
}

/// Ends a dry run's transaction without committing it.
private struct RolledBack: Error {}
