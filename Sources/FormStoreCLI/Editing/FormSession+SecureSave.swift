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

    /// The secure fields the row holds a value for, given or stored, its groups' rows' cells
    /// too (a save with `--children` removes or changes them, and their triggers read them),
    /// and those values as text.
    private var heldSecrets: (fields: [Field], texts: [String]) {
        var held = form.fields.filter { $0.isSecure && (!value($0.key).isEmpty || !pristineValue($0.key).isEmpty) }
        var values = held.flatMap { [value($0.key), pristineValue($0.key)] }
        for group in form.groups {
            for field in group.fields where field.isSecure {
                let cells = (rows(group.key) + loadedRows(group.key)).compactMap { $0.values[field.key] }.filter { !$0.isEmpty }
                guard !cells.isEmpty else { continue }
                held.append(SecureWriteFailure.field(field, of: group.key))
                values += cells
            }
        }
        let secrets = values.filter { !$0.isEmpty }.map { ValueText.text($0, kind: nil, blobsBySize: false) }
        return (held, secrets)
    }
}
