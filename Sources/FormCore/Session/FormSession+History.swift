/// Saves told who makes them: a backend that keeps history (`HistoryBackend`)
/// records each save with the session's `attribution`, in the save's transaction.
extension FormSession {
    func backendInsert(_ values: [String: FieldValue]) throws -> StoredRecord {
        if let history = backend as? any HistoryBackend {
            return try history.insert(form, values: values, storedForms: insertStoredForms(values),
                                      deletingDraft: draftDeletedByWrite, attribution: attribution)
        }
        return try backend.insert(form, values: values, deletingDraft: draftDeletedByWrite)
    }

    /// The stored forms given with the values a new record inserts (`set(_:value:storedAs:)`).
    private func insertStoredForms(_ values: [String: FieldValue]) -> [String: FieldValue] {
        extrasIfMade?.storedForms.filter { values[$0.key] != nil } ?? [:]
    }

    func backendUpdate(_ plan: UpdatePlan) throws -> UpdateResult {
        if let history = backend as? any HistoryBackend {
            return try history.update(form, key: plan.key, changes: plan.changes, base: plan.base,
                                      deletingDraft: draftDeletedByWrite, attribution: attribution)
        }
        return try backend.update(form, key: plan.key, changes: plan.changes, base: plan.base,
                                  deletingDraft: draftDeletedByWrite)
    }

    nonisolated(nonsending)
    func backendInsert(_ values: [String: FieldValue]) async throws -> StoredRecord {
        if let history = backend as? any HistoryBackend {
            return try await history.insert(form, values: values, storedForms: insertStoredForms(values),
                                            deletingDraft: draftDeletedByWrite, attribution: attribution)
        }
        return try await backend.insert(form, values: values, deletingDraft: draftDeletedByWrite)
    }

    nonisolated(nonsending)
    func backendUpdate(_ plan: UpdatePlan) async throws -> UpdateResult {
        if let history = backend as? any HistoryBackend {
            return try await history.update(form, key: plan.key, changes: plan.changes, base: plan.base,
                                            deletingDraft: draftDeletedByWrite, attribution: attribution)
        }
        return try await backend.update(form, key: plan.key, changes: plan.changes, base: plan.base,
                                        deletingDraft: draftDeletedByWrite)
    }

    /// The record's saves, oldest first (with `field`, those that changed it);
    /// empty for a backend that keeps no history or a record never saved.
    ///
    /// - throws: the backend's error.
    public func history(field: String? = nil) throws -> [RecordChange] {
        guard let key, let history = backend as? any HistoryBackend else { return [] }
        return try history.history(form, key: key, field: field)
    }
}
