/// A repeating group: a section whose fields repeat once per child row (an
/// invoice's lines, a playlist's tracks).
///
/// ```swift
/// Section(group: "lines", title: "Lines") {
///     Field("Item", key: "item").required()
///     Field("Amount", key: "amount", kind: .decimal)
/// }
/// .minRows(1).unique("item").sum("amount", into: "total")
/// ```
///
/// The rows are bound to a child table (rows whose foreign key refers to the
/// parent), to an array of structs in a Codable model, or to an array of
/// dictionaries; the session edits them with the parent and one save writes both.
public struct RowGroup: Sendable, Hashable {
    /// The model key of the rows: the array's coding key, or the child table's name.
    public var key: String
    /// The fields of one row.
    public var fields: [Field]
    /// Columns that identify a stored row (the child table's key); a row
    /// without values for them is new.
    public var keyFields: [String] = ["id"]
    public var minRows: Int? = nil
    public var maxRows: Int? = nil
    /// Fields whose values must differ from row to row.
    public var uniqueFields: [String] = []
    /// Parent fields that must equal the sum of a column of the rows.
    public var sums: [GroupSum] = []
    /// A column (not a field) holding each row's position; `nil`: the rows
    /// keep the order of their keys (a child table) or of the array (a model).
    public var orderColumn: String? = nil
    /// The child table (the group's `key` when `nil`).
    public var table: String? = nil
    /// The child table's columns referring to the parent's key, in its order.
    public var foreignKey: [String] = []
    /// Set by the DSL when the key path to the rows' array has no coding key
    /// (see `Field.unresolvedKeyPath`).
    public internal(set) var unresolvedKeyPath: String? = nil

    public init(key: String, fields: [Field]) {
        self.key = key
        self.fields = fields
    }

    /// The child table this group reads and writes.
    public var tableName: String { table ?? key }

    /// The row field with this key, if any.
    public func field(_ key: String) -> Field? { fields.first { $0.key == key } }

    /// Whether the order of the rows is kept by storage: an order column, or an
    /// array (no child table). A child table without an order column keeps its
    /// rows in key order, so its rows cannot be moved.
    public var keepsOrder: Bool { orderColumn != nil || foreignKey.isEmpty }
}

/// A parent field that must equal the sum of a column of a group's rows.
public struct GroupSum: Sendable, Hashable {
    /// The row field summed.
    public var column: String
    /// The parent field holding the total.
    public var field: String

    public init(column: String, field: String) {
        self.column = column
        self.field = field
    }
}

extension RowGroup {
    /// The message for a column the group names as `role` (its `foreignKey`,
    /// its `orderColumn`) that its table lacks: each backend refuses the form
    /// with it, rather than reading rows in no order or by no key.
    public func missingColumn(_ column: String, as role: String, form: String, table: String) -> String {
        "form \(form): group '\(key)' names \(role) '\(column)', which table '\(table)' lacks"
    }

    /// The message for a group whose table the database lacks.
    public func missingTable(form: String) -> String {
        "form \(form): group '\(key)' names table '\(tableName)', which the database lacks"
    }
}

extension RowGroup {
    /// Whether a row's cell of `field` takes input: a stored row's key is
    /// who the row is, never changed; a new row's part of a composite key is
    /// typed (a track's number on its album), where a lone key is left to
    /// the storage (a rowid). The full-screen form, the web page and the
    /// web's reading of a post all ask this.
    public func takesInput(_ field: Field, newRow: Bool) -> Bool {
        guard keyFields.contains(field.key) else { return field.holdsValue && !field.isReadOnly }
        return newRow && keyFields.count > 1
    }
}
