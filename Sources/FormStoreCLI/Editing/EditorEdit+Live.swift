import FormCore

/// What the `$EDITOR` loop shows of a live record: commits by others while the
/// document was open, said when it closes.
extension EditorEdit {
    /// - returns: the fields the person changed that someone else changed
    ///   too, for the document to show before anything is saved.
    @discardableResult
    func announceExternalChanges() throws -> [FieldConflict] {
        guard let change = try session.takeExternalChanges() else { return [] }
        let form = session.form
        let subject = "\(form.name) \(session.key?.typedText ?? "")"
        if change.deleted { throw CLIError.notFound("\(subject) was deleted while you edited it; nothing was saved") }
        if !change.changed.isEmpty {
            let fields = change.changed.map { "\(FieldDisplay.label($0, in: form)) → \(FieldDisplay.current($0, in: session))" }
            messages.write("Changed by someone else while you edited: \(fields.joined(separator: ", ")).\n")
        }
        // A row's cell (`lines[11].amount`) or a whole row too: the document lists them with the fields'.
        for conflict in change.conflicts + change.rowConflicts {
            messages.write("Also changed by someone else: " + FieldDisplay.conflict(conflict, in: form) + "\n")
        }
        return change.conflicts + change.rowConflicts
    }
}
