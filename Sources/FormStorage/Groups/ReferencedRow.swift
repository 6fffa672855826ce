/// What a foreign-key value refers to, as `FormStore.referencedRow(_:value:)`
/// finds it: the row's label, or no row at all.
public enum ReferencedRow: Sendable, Hashable {
    /// A row has the value; this is its label column's text.
    case labelled(String)
    /// No row of the referenced table has the value (a dangling key: foreign
    /// keys were off when it was written, or its row was deleted since).
    case missing
}
