/// One row of a repeating group in a session.
public struct GroupRow: Sendable, Hashable {
    /// Who the row is within the session: stays the same while it is edited
    /// and moved (`r1`, `r2` …; not stored).
    public let id: String
    /// The row's model values by row field key (a child table's key and order
    /// columns included as loaded).
    public var values: [String: FieldValue]
    /// The stored row's key; `nil` for a row added in this session.
    public var key: RecordKey?

    public init(id: String, values: [String: FieldValue], key: RecordKey?) {
        self.id = id
        self.values = values
        self.key = key
    }

    /// A row field's value (`.null` when it has none).
    public subscript(field: String) -> FieldValue { values[field] ?? .null }
}

/// How a row differs from the one loaded.
public enum RowChange: Sendable, Hashable {
    case unchanged
    /// Added in this session.
    case added
    /// Stored, and these fields changed (or its place among the rows did: `moved`).
    case changed(fields: [String], moved: Bool)
}
