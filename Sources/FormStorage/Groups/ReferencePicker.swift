import FormCore

/// A foreign-key field shown as a picker: the referenced table's rows are its
/// choices, each shown by a label column.
///
/// ```swift
/// let picker = try store.picker(orderForm, field: "customer_id")
/// try store.choices(orderForm, field: "customer_id", search: "ann")   // [Choice(7, label: "Ann Lee"), …]
/// ```
public struct ReferencePicker: Sendable, Hashable {
    /// The table the field refers to.
    public var table: String
    /// The referenced column (the choice's value).
    public var column: String
    /// The column shown for a row: named in the form, else the first text
    /// column that is unique or NOT NULL; `nil` when there is none (the value is shown).
    public var labelColumn: String?
    /// The table as SQL names it where its name alone finds another or none
    /// (on PostgreSQL, a table of a schema outside the search path: `other.target`,
    /// quoted where it must be); `nil`: by its name.
    public var relation: String?

    public init(table: String, column: String, labelColumn: String?, relation: String? = nil) {
        self.table = table
        self.column = column
        self.labelColumn = labelColumn
        self.relation = relation
    }

    /// The table as a query names it: `relation`, else its name quoted.
    public var quotedTable: String { relation ?? quoteIdentifier(table) }

    /// A column named like a password or a secret, never a picker's inferred
    /// label: a label is shown beside every key.
    public static func looksSecret(_ column: String) -> Bool {
        FormInference.looksSecret(column)
    }

    /// The label column of `table`: the first text column, other than the
    /// referenced one, that is UNIQUE or NOT NULL. A column named like a
    /// password or secret is passed over: a label is shown beside every key.
    static func inferredLabel(of table: TableInfo, besides column: String) -> String? {
        let unique = Set(table.uniqueKeys.filter { $0.count == 1 }.map { $0[0].lowercased() })
        return table.columns.first { info in
            info.name != column && info.affinity == .text && !info.isGenerated
                && !FormInference.looksSecret(info.name)
                && (info.isNotNull || unique.contains(info.name.lowercased()))
        }?.name
    }
}
