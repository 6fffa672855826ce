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
    /// or `ANY` in a STRICT table. Such a column stores what it is given.
    public var isUntyped: Bool { affinity == .blob && !declaredType.uppercased().containsUTF8("BLOB") }
}
