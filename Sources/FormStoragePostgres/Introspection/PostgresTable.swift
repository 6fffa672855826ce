/// A table (or view) as `pg_catalog` describes it: its columns in order, its
/// primary key and the column sets of its unique indexes.
public struct PostgresTable: Sendable, Hashable {
    public let name: String
    public let columns: [PostgresColumn]
    /// Primary-key columns in key order; empty when there is none.
    public let primaryKey: [String]
    /// Each unique index's columns (the primary key's included).
    public let uniqueKeys: [[String]]
    /// A view: it has no key of its own, so a spec names one (`primaryKey`)
    /// for `show`/`set`; it is written through only where PostgreSQL can
    /// (a simple view, or `INSTEAD OF` triggers).
    public var isView = false
    /// A `BEFORE` or `INSTEAD OF` row trigger may store other values than
    /// written (a version bumped, a name upper-cased): what the server read
    /// back is the trigger's, not a value rounded by its column.
    public var rewritesRows = false
    /// Row-level security is on: a row a role may read it may still not be let change or delete.
    public var hasRowSecurity = false

    public func column(_ name: String) -> PostgresColumn? {
        columns.first { $0.name == name }
    }

    /// True when `key` names one row: it is the primary key or a unique index.
    func identifiesOneRow(_ key: [String]) -> Bool {
        uniqueKeys.contains { Set($0) == Set(key) }
    }
}
