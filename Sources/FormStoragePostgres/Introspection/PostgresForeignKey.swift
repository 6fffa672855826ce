/// A foreign key of a table (`pg_constraint`, `contype = 'f'`): its columns
/// and the columns of the table they reference, pairwise.
public struct PostgresForeignKey: Sendable, Hashable {
    /// The referenced table's name, unqualified.
    public let destinationTable: String
    /// The columns of this table, in key order.
    public let columns: [String]
    /// The referenced columns, in key order.
    public let destinationColumns: [String]
    /// The referenced table as SQL names it here, quoted where it must be:
    /// qualified by its schema when the search path does not find it by its
    /// name alone (a table of another schema), which queried by its name
    /// alone was "relation does not exist", or another schema's table.
    public let destinationRelation: String
    /// Whether the search path finds the referenced table by its name alone.
    /// One it does not (a table of another schema) is no picker, no group and
    /// no parent of the table of that name the search path finds: each would
    /// read, or write under, that other table.
    public let destinationIsVisible: Bool
    /// The constraint's name (`conname`), where it was read.
    public var name: String?
    /// Declared `MATCH FULL`: the key's columns are all NULL or none is.
    public var matchesFull = false

    public init(destinationTable: String, columns: [String], destinationColumns: [String], destinationRelation: String? = nil,
                destinationIsVisible: Bool = true) {
        self.destinationTable = destinationTable
        self.columns = columns
        self.destinationColumns = destinationColumns
        self.destinationRelation = destinationRelation ?? quoteIdentifier(destinationTable)
        self.destinationIsVisible = destinationIsVisible
    }

    /// The referenced table as a message names it: by its name, qualified
    /// by its schema where the search path does not find it so.
    public var shownDestination: String { destinationIsVisible ? destinationTable : destinationRelation }

    /// Whether the key refers to the table the search path finds as `table`.
    public func refers(to table: String) -> Bool { destinationIsVisible && destinationTable == table }
}
