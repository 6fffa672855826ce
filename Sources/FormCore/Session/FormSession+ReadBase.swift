/// A session over a record as someone read it earlier, for a service whose
/// caller edits a copy and sends its changes later (an HTTP `PATCH` naming
/// the state it read): the save is judged against what the caller saw.
extension FormSession {
    /// Opens a session whose base is `record` as read earlier, not the record
    /// as stored now: a save writes the fields and rows changed from it, and a
    /// field or row someone else changed since is a conflict (base, mine,
    /// theirs), while their other changes stand.
    ///
    /// ```swift
    /// let session = try FormSession.open(form, readAs: recordTheCallerRead, backend: store)
    /// try session.apply(json: body)
    /// if case .conflict(let conflicts) = try session.save() { … }   // `lines[11].amount`: was, yours, theirs
    /// ```
    ///
    /// - throws: `FormDefinitionError` when the form's definition has a mistake.
    public static func open(_ form: Form, readAs record: StoredRecord, backend: any FormBackend) throws -> FormSession {
        try form.checkDefinition()
        return FormSession(form: form, backend: backend, draftStore: nil, key: record.key, values: record.slotValues,
                           version: record.version, owner: nil, draftPolicy: .none, autosave: .init(), groups: record.groups)
    }
}
