import FoundationEssentials
import FormCore
import FormStorage

/// What emptying a field stores: NULL where the column allows it, empty text
/// where it does not (`NOT NULL` with a default) or where the schema says
/// empty text is its "nothing" (`DEFAULT ''`). A `NOT NULL` column without a
/// default (the field `isNotNull`) has no "nothing": emptied, it is refused
/// as required, and empty text is typed as such (`:=""`). A field that holds
/// nothing already is left alone.
///
/// ```swift
/// let policy = EmptyInputPolicy(emptyTextColumns: try store.emptyTextColumns(of: form))
/// policy.cleared(form.field("company")!)   // .null for `company TEXT`
/// ```
struct EmptyInputPolicy: Sendable, Hashable {
    /// Fields whose column stores empty text rather than NULL when cleared.
    private let emptyTextFields: Set<String>

    /// - parameter emptyTextColumns: `RecordStore.emptyTextColumns(of:)`.
    init(emptyTextColumns: Set<String>) {
        emptyTextFields = emptyTextColumns
    }

    /// Every column nullable (a workspace without a database).
    init() {
        emptyTextFields = []
    }

    /// The value a cleared field stores. Kinds whose empty input means no
    /// value (numbers, dates, choices) are NULL whatever the column: a NOT NULL
    /// column then reports the field as required.
    func cleared(_ field: Field) -> FieldValue {
        guard case .success(.text) = field.parse("") else { return .null }
        return emptyTextFields.contains(field.key) && !field.isNotNull ? .text("") : .null
    }
}
