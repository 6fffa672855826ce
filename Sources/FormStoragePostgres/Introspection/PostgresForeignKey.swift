/// A foreign key of a table (`pg_constraint`, `contype = 'f'`): its columns
/// and the columns of the table they reference, pairwise.
public struct PostgresForeignKey: Sendable, Hashable {
    /// The referenced table's name, unqualified.
    public let destinationTable: String
    /// The columns of this table, in key order.
    public let columns: [String]
    /// The referenced columns, in key order.
    public let destinationColumns: [String]
}
