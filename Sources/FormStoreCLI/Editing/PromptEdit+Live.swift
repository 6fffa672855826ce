import FormCore

/// What the prompts show of a live record, and undo and redo at a field's
/// prompt: `\u` takes the last change back, `\r` makes it again.
extension PromptEdit {
    /// The answers that step through the session's undo history instead of setting the field.
    static let stepCommands: Set<String> = [#"\u"#, #"\r"#]

    /// Says what others committed since the last question: fields that took
    /// the new values, and fields changed both here and there (base, mine, theirs).
    func announceExternalChanges() throws {
        guard let change = try session.takeExternalChanges() else { return }
        let form = session.form
        if change.deleted {
            throw CLIError.deletedWhileEditing(session)
        }
        if !change.changed.isEmpty {
            let fields = change.changed.map { "\(FieldDisplay.label($0, in: form)) → \(FieldDisplay.current($0, in: session))" }
            prompter.say("Changed by someone else meanwhile: \(fields.joined(separator: ", ")).")
        }
        for conflict in change.conflicts + change.rowConflicts {
            prompter.say("Also changed by someone else: " + FieldDisplay.conflict(conflict, in: form))
        }
    }

    /// `\u` or `\r` at a field's prompt.
    func step(_ command: String) throws {
        let undoing = command == #"\u"#
        guard undoing ? session.canUndo : session.canRedo else {
            prompter.say(undoing ? "  Nothing to undo." : "  Nothing to redo.")
            return
        }
        let fields = undoing ? session.undoFields : session.redoFields
        if undoing { try session.undo() } else { try session.redo() }
        prompter.say("  \(undoing ? "Undone" : "Redone"): \(FieldDisplay.step(fields, in: session)).")
    }
}
