import FormCore

extension FormSession {
    /// `save()`, with the database's message replaced when the row holds a
    /// secure value (`SecureWriteFailure`): the one way the command saves a
    /// session. The row's, not only the write's: a trigger reads the stored
    /// password through `NEW` as well, and a change of another field printed
    /// it (`amount negative secret=hunter2`).
    func saveKeepingSecretsOut() throws -> SaveOutcome {
        let held = form.fields.filter { $0.isSecure && (!value($0.key).isEmpty || !pristineValue($0.key).isEmpty) }
        let secrets = held.flatMap { field in
            [value(field.key), pristineValue(field.key)].filter { !$0.isEmpty }.map { ValueText.text($0, kind: nil, blobsBySize: false) }
        }
        let written = held.filter { value($0.key) != pristineValue($0.key) }
        return try SecureWriteFailure.guarding(held, written: written, secrets: secrets) {
            try save()
        }
    }
}
