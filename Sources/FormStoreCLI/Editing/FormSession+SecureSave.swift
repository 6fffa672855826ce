import FormCore

extension FormSession {
    /// `save()`, with SQLite's message replaced when the write bound a secure
    /// value (`SecureWriteFailure`): the one way the command saves a session.
    func saveKeepingSecretsOut() throws -> SaveOutcome {
        let changed = Set(dirtyFields)
        let bound = form.fields.filter { $0.isSecure && changed.contains($0.key) && !value($0.key).isEmpty }
        return try SecureWriteFailure.guarding(bound, secrets: bound.map { ValueText.text(value($0.key), kind: nil, blobsBySize: false) }) {
            try save()
        }
    }
}
