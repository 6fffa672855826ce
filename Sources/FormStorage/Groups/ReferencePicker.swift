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

    public init(table: String, column: String, labelColumn: String?) {
        self.table = table
        self.column = column
        self.labelColumn = labelColumn
    }

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
