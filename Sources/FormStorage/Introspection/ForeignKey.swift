/// A foreign key of a table (`PRAGMA foreign_key_list`): its columns and the
/// columns of the table they reference, pairwise.
public struct ForeignKey: Sendable, Hashable {
    /// The referenced table.
    public var destinationTable: String
    /// The columns of this table, in key order.
    public var columns: [String]
    /// The referenced columns, in key order; the destination's primary key when
    /// the constraint names none (empty when that table does not exist).
    public var destinationColumns: [String]
    /// `NO ACTION`, `CASCADE`, `SET NULL`, `SET DEFAULT` or `RESTRICT`.
    public var onUpdate: String
    public var onDelete: String

    public init(destinationTable: String, columns: [String], destinationColumns: [String],
                onUpdate: String = "NO ACTION", onDelete: String = "NO ACTION") {
        self.destinationTable = destinationTable
        self.columns = columns
        self.destinationColumns = destinationColumns
        self.onUpdate = onUpdate
        self.onDelete = onDelete
    }
}
