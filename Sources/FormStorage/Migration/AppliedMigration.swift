public import FoundationEssentials

/// A row of a migrations table: a migration the database has applied.
public struct AppliedMigration: Sendable, Hashable {
    public let number: Int
    /// The file name it was applied from.
    public let name: String
    /// SHA-256 of its SQL when it was applied.
    public let checksum: String
    public let appliedAt: Date?

    public init(number: Int, name: String, checksum: String, appliedAt: Date?) {
        self.number = number
        self.name = name
        self.checksum = checksum
        self.appliedAt = appliedAt
    }
}
