import FormCore

extension FormSession {
    /// `save()`, with the database's message replaced when the row holds a
    /// secure value (`SecureWriteFailure`): the one way the command saves a
    /// session. The row's, not only the write's: a trigger reads the stored
    /// password through `NEW` as well, and a change of another field printed
    /// it (`amount negative secret=hunter2`).
    func saveKeepingSecretsOut() throws -> SaveOutcome {
        let (held, secrets) = heldSecrets
        let written = held.filter { value($0.key) != pristineValue($0.key) }
        return try SecureWriteFailure.guarding(held, written: written, secrets: secrets) {
            try save()
        }
    }

    /// `delete()`, with the database's message replaced as for a save: a trigger refusing
    /// the delete reads the row's password through `OLD` as well (`cannot delete, password is …`).
    func deleteKeepingSecretsOut() throws {
        let (held, secrets) = heldSecrets
        try SecureWriteFailure.guarding(held, written: [], secrets: secrets) {
            try delete()
        }
    }

    /// The secure fields the row holds a value for, given or stored, and those values as text.
    private var heldSecrets: (fields: [Field], texts: [String]) {
        let held = form.fields.filter { $0.isSecure && (!value($0.key).isEmpty || !pristineValue($0.key).isEmpty) }
        let secrets = held.flatMap { field in
            [value(field.key), pristineValue(field.key)].filter { !$0.isEmpty }.map { ValueText.text($0, kind: nil, blobsBySize: false) }
        }
        return (held, secrets)
    }
}
