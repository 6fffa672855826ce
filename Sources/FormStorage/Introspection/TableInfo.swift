import FormBasics
import FoundationEssentials

/// What FormStorage knows of a table: its columns, primary key, foreign keys
/// and kind. Get one with `Connection.tableInfo(_:)`.
///
/// ```swift
/// let info = try db.read { try $0.tableInfo("order line") }
/// info.primaryKey.columns          // ["order", "line"]
/// info.column("status")?.allowedValues   // [.text("open"), .text("closed")]
/// ```
public struct TableInfo: Sendable, Hashable {
    /// The name as stored in the schema.
    public var name: String
    /// Columns in table order (hidden virtual-table columns excluded).
    public var columns: [ColumnInfo]
    public var primaryKey: PrimaryKey
    /// Declared `WITHOUT ROWID`.
    public var isWithoutRowID: Bool
    public var foreignKeys: [ForeignKey]
    /// The `CREATE TABLE` (or `CREATE VIEW`) statement.
    public var sql: String
    public var kind: Kind = .table
    /// The column sets of UNIQUE indexes and constraints: each names at most one row.
    public var uniqueKeys: [[String]] = []

    /// A table, or a view (read-only, or written through its `INSTEAD OF` triggers).
    public enum Kind: Sendable, Hashable { case table, view, writableView }

    public var isView: Bool { kind != .table }

    /// A table Core Data made (an iOS or macOS app's store): keyed by `Z_PK`,
    /// with its entity (`Z_ENT`) and version (`Z_OPT`) columns.
    public var isCoreData: Bool {
        ["Z_PK", "Z_ENT", "Z_OPT"].allSatisfy { name in columns.contains { $0.name == name } }
    }

    public init(name: String, columns: [ColumnInfo], primaryKey: PrimaryKey, isWithoutRowID: Bool,
                foreignKeys: [ForeignKey], sql: String) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.isWithoutRowID = isWithoutRowID
        self.foreignKeys = foreignKeys
        self.sql = sql
    }

    /// The name the table's rowid is read by: `rowid`, else `_rowid_` or
    /// `oid` where a column of the table has taken the name (SQLite's three
    /// spellings); `nil` for a view, a `WITHOUT ROWID` table, or a table whose
    /// columns take all three.
    public var rowIDName: String? {
        guard !isWithoutRowID && !isView else { return nil }
        return ["rowid", "_rowid_", "oid"].first { column($0) == nil }
    }

    /// Whether `columns` name at most one row: the primary key (or the rowid),
    /// or the columns of a UNIQUE index, in any order.
    public func identifiesOneRow(_ columns: [String]) -> Bool {
        let wanted = Set(columns.map { $0.lowercased() })
        if let rowID = rowIDName, wanted == [rowID] { return true }
        let keys = [primaryKey.columns] + uniqueKeys
        return keys.contains { !$0.isEmpty && Set($0.map { $0.lowercased() }).isSubset(of: wanted) }
    }

    /// The column with this name, compared without regard to case as SQLite does.
    public func column(_ name: String) -> ColumnInfo? {
        columns.first { $0.name == name }
            ?? columns.first { $0.name.equalsIgnoringCase(name) }
    }
}
