import Synchronization

/// Catalog facts a store reads again and again (a table's columns and keys,
/// its constraints), read from `pg_catalog` once per store and then kept, as
/// the store's mappings are: a picker or a group's child table costs no
/// catalog query after the first. `migrate` and `initializeOwnTables` through
/// the store clear it; a schema changed by another client is seen by a store
/// opened after the change (a command is one store; restart `serve`).
final class PostgresCatalogCache: Sendable {
    private let tables = Mutex<[String: PostgresTable?]>([:])
    private let constraints = Mutex<[String: PostgresConstraints]>([:])

    /// The table named `name` (nil when there is none), read once;
    /// `relation` as `PostgresConnection.table(_:relation:)` takes it.
    func table(_ name: String, relation: String? = nil, _ conn: PostgresConnection) throws -> PostgresTable? {
        // A relation text holds a dot or quotes, which no name quoted by `quote_ident` alone is.
        let key = relation.map { "\u{1f}" + $0 } ?? name
        if let cached = tables.withLock({ $0[key] }) { return cached }
        let table = try conn.table(name, relation: relation)
        tables.withLock { $0[key] = .some(table) }
        return table
    }

    /// The table's check and foreign-key constraints, read once.
    func constraints(of name: String, _ conn: PostgresConnection) throws -> PostgresConstraints {
        if let cached = constraints.withLock({ $0[name] }) { return cached }
        let read = try conn.constraints(of: name)
        constraints.withLock { $0[name] = read }
        return read
    }

    func clear() {
        tables.withLock { $0.removeAll() }
        constraints.withLock { $0.removeAll() }
    }
}
