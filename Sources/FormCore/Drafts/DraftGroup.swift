/// A repeating group's rows in a draft: the rows as they were being edited, in
/// their order, and the stored rows they were based on (for the three-way
/// merge per row on restore).
public struct DraftGroup: Sendable, Hashable, Codable {
    /// The rows in the order they had: a stored row by its key with the
    /// values that changed, a new row (no key) with all of its values.
    public var rows: [DraftRow]
    /// The stored rows as loaded.
    public var base: [[String: FieldValue]]

    public init(rows: [DraftRow], base: [[String: FieldValue]]) {
        self.rows = rows
        self.base = base
    }
}

/// One row of a `DraftGroup`.
public struct DraftRow: Sendable, Hashable, Codable {
    /// The stored row's key; `nil` for a new row (or any row of a group without key columns).
    public var key: RecordKey?
    public var values: [String: FieldValue]
    /// Raw inputs that did not parse.
    public var inputs: [String: String]

    public init(key: RecordKey?, values: [String: FieldValue], inputs: [String: String] = [:]) {
        self.key = key
        self.values = values
        self.inputs = inputs
    }
}
