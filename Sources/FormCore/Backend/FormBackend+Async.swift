/// The async API's defaults: the blocking call, run in place. Right for a
/// backend or draft store that never waits (a model in memory, a settings
/// store, files); a backend over a database implements them on its own threads.
extension FormBackend {
    nonisolated(nonsending)
    public func load(_ form: Form, key: RecordKey) async throws -> StoredRecord? {
        try blocking { try load(form, key: key) }
    }

    nonisolated(nonsending)
    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?) async throws -> StoredRecord {
        try blocking { try insert(form, values: values, deletingDraft: deletingDraft) }
    }

    nonisolated(nonsending)
    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?) async throws -> UpdateResult {
        try blocking { try update(form, key: key, changes: changes, base: base, deletingDraft: deletingDraft) }
    }

    nonisolated(nonsending)
    public func delete(_ form: Form, key: RecordKey, deletingDraft: String?) async throws -> Bool {
        try blocking { try delete(form, key: key, deletingDraft: deletingDraft) }
    }
}

extension DraftStore {
    public var draftScope: String? { nil }

    /// Whether `draft`, found in a store of several databases' drafts (the
    /// fallback files), is one of this store's: stamped with its scope, or
    /// with none (kept before drafts had scopes).
    public func owns(_ draft: Draft) -> Bool {
        draft.database == nil || draft.database == draftScope
    }

    public func drafts(form: String, key: RecordKey?, owner: String?) throws -> [Draft] {
        try drafts(form: form, key: key).filter { $0.owner == owner }
    }

    public func drafts(form: String?, owner: String?) throws -> [Draft] {
        try drafts(form: form).filter { $0.owner == owner }
    }

    public func deletesDrafts(with backend: any FormBackend) -> Bool { false }

    public func writeDraft(_ draft: Draft) async throws {
        try blocking { try writeDraft(draft) }
    }

    public func drafts(form: String, key: RecordKey?, owner: String?) async throws -> [Draft] {
        try blocking { try drafts(form: form, key: key, owner: owner) }
    }

    public func deleteDraft(id: String) async throws {
        try blocking { try deleteDraft(id: id) }
    }
}

/// Calls the blocking overload from an async function: inside a synchronous
/// closure Swift cannot pick the async one (which would call itself).
@inline(__always)
func blocking<T>(_ body: () throws -> T) rethrows -> T {
    try body()
}
