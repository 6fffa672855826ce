/// A column of a table, as SQLite describes it (`PRAGMA table_xinfo`), plus
/// the values a simple `CHECK (column IN (...))` allows.
public struct ColumnInfo: Sendable, Hashable {
    public var name: String
    /// The type as written in `CREATE TABLE` (may be empty).
    public var declaredType: String
    public var affinity: ColumnAffinity
    public var isNotNull: Bool
    /// The default as SQL text (`'draft'`, `0`, `CURRENT_TIMESTAMP`), `nil` when none.
    public var defaultValueSQL: String?
    /// 1-based position in the primary key; 0 when not part of it.
    public var primaryKeyPosition: Int
    /// A generated column (`GENERATED ALWAYS AS`): read, never written.
    public var isGenerated: Bool
    /// The values of a `CHECK (column IN ('a', 'b', ...))` constraint, in order; `nil` when none.
    public var allowedValues: [DatabaseValue]?

    public init(name: String, declaredType: String, isNotNull: Bool = false, defaultValueSQL: String? = nil,
                primaryKeyPosition: Int = 0, isGenerated: Bool = false, allowedValues: [DatabaseValue]? = nil) {
        self.name = name
        self.declaredType = declaredType
        self.affinity = ColumnAffinity(declaredType: declaredType)
        self.isNotNull = isNotNull
        self.defaultValueSQL = defaultValueSQL
        self.primaryKeyPosition = primaryKeyPosition
        self.isGenerated = isGenerated
        self.allowedValues = allowedValues
    }

    public var isPrimaryKey: Bool { primaryKeyPosition > 0 }

    /// No type to convert a value to: declared with none (`CREATE TABLE t(a)`),
    /// `ANY` in a STRICT table, or a type that names no kind (`JSON`, `UUID`,
    /// `STRING`), which SQLite's last rule gives NUMERIC affinity: text that
    /// is no number stays text there. Such a column stores what it is given,
    /// and an inferred form takes it as text rather than refuse JSON in a
    /// `JSON` column as "not a number".
    public var isUntyped: Bool {
        let type = declaredType.uppercased()
        switch affinity {
        case .blob: return !type.containsUTF8("BLOB")
        case .numeric: return !Self.kindWords.contains { type.containsUTF8($0) }
        default: return false
        }
    }

    /// What a NUMERIC column's declared type names when it names a kind: a
    /// number (`NUMERIC`, `NUMBER`, `DECIMAL`, `MONEY`), a bool, a date or a time.
    private static let kindWords = ["NUM", "DEC", "MONEY", "BOOL", "DATE", "TIME"]
}
