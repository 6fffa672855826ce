/// Where a `FormStore` keeps its own tables (drafts, kept specs, settings).
enum OwnTables: Sendable, Hashable {
    /// In the database itself: FormStore created it, or was asked to take it
    /// over (`formstore init`, `FormStore.initialize()`).
    case database
    /// In a sidecar database, attached once it exists: any other database.
    case sidecar(Sidecar)
}
