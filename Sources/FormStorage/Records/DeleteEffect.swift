/// What deleting a record does to the rows that refer to it, by a foreign
/// key's `ON DELETE` rule: the database carries it out in the delete's own
/// transaction, so a person is told before (`formstore delete` asks with it).
/// Only the rows that refer to the record itself are counted; a cascade may
/// go on from them.
public struct DeleteEffect: Sendable, Hashable, CustomStringConvertible {
    public enum Action: String, Sendable, Hashable {
        case cascade = "CASCADE"
        case setNull = "SET NULL"
        case setDefault = "SET DEFAULT"

        /// The action for a rule as the schema spells it; `nil` for one that
        /// leaves the rows alone (`NO ACTION`, `RESTRICT`: the delete is refused instead).
        public init?(rule: String) {
            switch rule.uppercased() {
            case "CASCADE": self = .cascade
            case "SET NULL": self = .setNull
            case "SET DEFAULT": self = .setDefault
            default: return nil
            }
        }
    }

    /// The referring table and its key's columns.
    public var table: String
    public var columns: [String]
    public var action: Action
    /// How many of its rows refer to the record.
    public var rows: Int

    public init(table: String, columns: [String], action: Action, rows: Int) {
        self.table = table
        self.columns = columns
        self.action = action
        self.rows = rows
    }

    /// `3 rows of order_items deleted (ON DELETE CASCADE)`, `emp.boss cleared in 1 row (ON DELETE SET NULL)`.
    public var description: String {
        let rowsText = rows == 1 ? "1 row" : "\(rows) rows"
        let column = "\(table).\(columns.count == 1 ? columns[0] : "(\(columns.joined(separator: ", ")))")"
        switch action {
        case .cascade: return "\(rowsText) of \(table) deleted (ON DELETE CASCADE)"
        case .setNull: return "\(column) cleared in \(rowsText) (ON DELETE SET NULL)"
        case .setDefault: return "\(column) set to its default in \(rowsText) (ON DELETE SET DEFAULT)"
        }
    }
}
