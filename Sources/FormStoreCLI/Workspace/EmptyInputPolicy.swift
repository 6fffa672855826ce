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
    /// The same of each repeating group's table, by group key.
    private let emptyTextCells: [String: Set<String>]

    /// - parameter emptyTextColumns: `RecordStore.emptyTextColumns(of:)`.
    /// - parameter groups: the same of each group's table, by group key.
    init(emptyTextColumns: Set<String>, groups: [String: Set<String>] = [:]) {
        emptyTextFields = emptyTextColumns
        emptyTextCells = groups
    }

    /// Every column nullable (a workspace without a database).
    init() {
        emptyTextFields = []
        emptyTextCells = [:]
    }

    /// The value a cleared field stores. Kinds whose empty input means no
    /// value (numbers, dates, choices) are NULL whatever the column: a NOT NULL
    /// column then reports the field as required.
    func cleared(_ field: Field) -> FieldValue { Self.cleared(field, emptyText: emptyTextFields) }

    /// Whether the field's column takes NULL: not `NOT NULL`, with or without a default.
    func takesNull(_ field: Field) -> Bool { !field.isNotNull && !emptyTextFields.contains(field.key) }

    /// The value a cleared cell of a row of `group` stores, as `cleared(_:)` for a field.
    func cleared(_ field: Field, inGroup group: String) -> FieldValue {
        Self.cleared(field, emptyText: emptyTextCells[group] ?? [])
    }

    private static func cleared(_ field: Field, emptyText: Set<String>) -> FieldValue {
        guard case .success(.text) = field.parse("") else { return .null }
        return emptyText.contains(field.key) && !field.isNotNull ? .text("") : .null
    }
}

extension StorageWorkspace {
    /// The policy of `form`'s table, and of each of its groups' tables.
    ///
    /// A `NOT NULL` column without a default has no "nothing" whatever field
    /// names it: a spec's field (which does not say `isNotNull`) emptied is
    /// refused as the inferred one is, where it stored empty text unasked.
    func emptyInputPolicy(of form: Form) throws -> EmptyInputPolicy {
        let store = try store()
        func emptyText(_ form: Form, table: String) throws -> Set<String> {
            let noNothing = try store.inferredForm(table: table).map { Set($0.fields.filter(\.isNotNull).map(\.key)) } ?? []
            return try store.emptyTextColumns(of: form).subtracting(noNothing)
        }
        var groups: [String: Set<String>] = [:]
        for group in form.groups {
            if let table = try store.inferredForm(table: group.tableName) { groups[group.key] = try emptyText(table, table: group.tableName) }
        }
        return EmptyInputPolicy(emptyTextColumns: try emptyText(form, table: form.tableName), groups: groups)
    }
}
