public import FormCore

/// What a page knows of a foreign-key field, from whoever holds the
/// database (FormWeb reads none): the referenced rows when there are few, a
/// route that searches them when there are many, the label of the row the
/// value refers to, and why the value is refused when it refers to no row.
///
/// ```swift
/// let few = try store.choices(form, field: "customer_id", limit: WebReference.selectLimit + 1)
/// let reference = few.count <= WebReference.selectLimit
///     ? WebReference(choices: few, label: label)
///     : WebReference(searchHref: "/api/forms/orders/choices/customer_id", label: label)
/// ```
public struct WebReference: Sendable, Hashable {
    /// At most this many referenced rows are drawn as a `<select>`; more, as a searched text input.
    public static let selectLimit = 100

    /// Every referenced row, for a `<select>`; `nil` when the table is too large to list.
    public var choices: [Choice]?
    /// A JSON route answering `?search=TEXT` with `[{"value", "label"}]`, for a `<datalist>`.
    public var searchHref: String?
    /// The label of the row the field's value refers to.
    public var label: String?
    /// The library's message when the value refers to no row; shown beside the field.
    public var problem: String?

    public init(choices: [Choice]? = nil, searchHref: String? = nil, label: String? = nil, problem: String? = nil) {
        self.choices = choices
        self.searchHref = searchHref
        self.label = label
        self.problem = problem
    }
}
