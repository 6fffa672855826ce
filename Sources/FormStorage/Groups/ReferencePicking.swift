public import FormCore

/// Foreign keys as pickers, whichever database holds them: what `choices`,
/// the labels `show` and `list` print beside a key, and serve's pickers need.
/// `FormStore` (SQLite) and `PostgresFormStore` both provide it; a search
/// binds its text and reads at most `limit` rows, never the whole table.
///
/// ```swift
/// let store: any RecordStore = try PostgresFormStore(url: "postgres://app@db/app")
/// try store.choices(orderForm, field: "customer_id", search: "ann", limit: 20)   // [Choice(7, label: "Ann Lee")]
/// ```
public protocol ReferencePicking: Sendable {
    /// The picker of a field (`group.field` for a group's row field) that is a
    /// single-column foreign key; `nil` for any other field.
    func picker(_ form: Form, field: String) throws -> ReferencePicker?
    /// The pickers of the form's own fields (not its groups'), by field key.
    func pickers(_ form: Form) throws -> [String: ReferencePicker]
    /// Referenced rows whose label (or key) contains `search`, ordered by label, at most `limit`.
    func choices(_ form: Form, field: String, search: String?, limit: Int) throws -> [Choice]
    /// The row `value` refers to through `picker`, by its label column (`.missing` for a dangling key).
    func referencedRow(_ picker: ReferencePicker, value: FieldValue) throws -> ReferencedRow?
    /// The label of the row a field's value refers to; `nil` without one.
    func referenceLabel(_ form: Form, field: String, value: FieldValue) throws -> String?
}

extension FormStore: ReferencePicking {}
