/// What a table's constraints tell a form beyond its columns' types: the
/// values a `CHECK (col IN (…))` allows and the foreign keys.
public struct PostgresConstraints: Sendable, Hashable {
    /// Per column, the literals of a one-column `CHECK (col IN (…))` in their
    /// order, as written (`draft`, `5`); a column with several such checks
    /// keeps the first, by constraint name.
    public let allowedValues: [String: [String]]
    public let foreignKeys: [PostgresForeignKey]
    /// Each CHECK's expression as the server writes it (`qty > 0`), by constraint name.
    public let checks: [String]

    public init(allowedValues: [String: [String]] = [:], foreignKeys: [PostgresForeignKey] = [], checks: [String] = []) {
        self.allowedValues = allowedValues
        self.foreignKeys = foreignKeys
        self.checks = checks
    }
}
