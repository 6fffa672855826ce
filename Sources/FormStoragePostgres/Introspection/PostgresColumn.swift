/// A column as `pg_catalog` describes it.
public struct PostgresColumn: Sendable, Hashable {
    public let name: String
    /// The type's name in `pg_type` (`int4`, `timestamptz`, `_text` for `text[]`, an enum's name).
    public let typeName: String
    /// For an array, its element type's name (`text` for `text[]`).
    public let elementTypeName: String?
    /// The labels of an enum type, in their order; empty for other types.
    public let enumLabels: [String]
    public let isNotNull: Bool
    /// The default expression (`nextval(…)`, `now()`, `'draft'::text`), if any.
    public let defaultSQL: String?
    /// `GENERATED … AS IDENTITY`.
    public let isIdentity: Bool
    /// `GENERATED ALWAYS AS IDENTITY`: the server refuses a value for it
    /// (`BY DEFAULT` takes one, as a serial does).
    public var isAlwaysIdentity = false
    /// `GENERATED ALWAYS AS (…) STORED`: never written.
    public let isGenerated: Bool

    public var isArray: Bool { elementTypeName != nil }
    public var isEnum: Bool { !enumLabels.isEmpty }
    /// Numbered by a sequence: an identity, or a serial's `nextval(…)` default.
    public var takesSequence: Bool { isIdentity || defaultSQL?.hasPrefix("nextval(") == true }
    /// Filled in by the server when a new row leaves it out.
    public var hasDefault: Bool { defaultSQL != nil || isIdentity || isGenerated }
}

/// The SQL type families FormStore reads and writes differently.
enum PostgresTypeFamily {
    case bool, integer, float, numeric, date, time, timestamp, bytea, json, text

    init(typeName: String) {
        switch typeName {
        case "bool": self = .bool
        case "int2", "int4", "int8", "oid": self = .integer
        case "float4", "float8": self = .float
        case "numeric", "money": self = .numeric
        case "date": self = .date
        case "time": self = .time
        // A time with its zone is text as the server writes it (`09:00:00+05:30`): read as a
        // clock time, its offset was dropped, and written back as UTC it became another moment.
        case "timetz": self = .text
        case "timestamp", "timestamptz": self = .timestamp
        case "bytea": self = .bytea
        case "json", "jsonb": self = .json
        default: self = .text
        }
    }
}
