/// How a table's rows are identified.
public enum PrimaryKey: Sendable, Hashable {
    /// No declared key: rows are identified by the hidden `rowid`.
    case hiddenRowID
    /// An `INTEGER PRIMARY KEY` column, which is the rowid under another name.
    case rowIDAlias(String)
    /// Declared key columns, in key order (one or several; any table kind).
    case columns([String])

    /// The key columns in key order; empty for `hiddenRowID`.
    public var columns: [String] {
        switch self {
        case .hiddenRowID: return []
        case .rowIDAlias(let column): return [column]
        case .columns(let columns): return columns
        }
    }

    /// True when the key is the rowid (hidden or aliased), which SQLite assigns on insert.
    public var isRowID: Bool {
        switch self {
        case .hiddenRowID, .rowIDAlias: return true
        case .columns: return false
        }
    }
}
