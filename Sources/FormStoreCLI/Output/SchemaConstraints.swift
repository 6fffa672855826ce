/// What the database holds a form's table to beyond types and keys, as its
/// schema writes it: each column's DEFAULT and the table's CHECK constraints.
struct SchemaConstraints: Sendable, Hashable {
    /// The DEFAULT of each column that has one, by column, as written (`'x'`, `CURRENT_TIMESTAMP`).
    var defaults: [String: String] = [:]
    /// Each CHECK's expression, in the order the schema gives them.
    var checks: [String] = []
}
