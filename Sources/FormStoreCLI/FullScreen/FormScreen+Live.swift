import FormCore

/// A live record on the screen: undo and redo (Alt-Z, Ctrl-Y), and what
/// other writers committed while the form is open. The session keeps the
/// steps and hears the commits; the screen asks for them and says what happened.
extension FormScreen {
    /// Alt-Z (`undoing`) or Ctrl-Y: the field being typed in is left first, so
    /// the run of typing just done is the step taken back. Undoing a save saves
    /// the previous values; a conflict opens the conflict screen.
    func step(undoing: Bool) throws {
        try leaveField()
        guard undoing ? session.canUndo : session.canRedo else {
            say(undoing ? "Nothing to undo." : "Nothing to redo.")
            return
        }
        let fields = undoing ? session.undoFields : session.redoFields
        let outcome: SaveOutcome?
        do {
            outcome = undoing ? try session.undo() : try session.redo()
        } catch let refused as SessionError {
            say(refused.message, problem: true)
            return
        }
        let shown = FieldDisplay.step(fields, in: session)
        let verb = undoing ? "Undone" : "Redone"
        switch outcome {
        case nil:
            say("\(verb): \(shown).")
        case .saved?:
            noteSaved(fields)
            say("\(verb) and saved: \(shown).")
        case .conflict(let conflicts)?:
            overlay = .conflicts(ConflictChoice(conflicts: conflicts, keepMine: conflicts.map { _ in true }))
        case .invalid(let errors)?:
            say("Not \(verb.lowercased()): " + errors.map(\.message).joined(separator: "; "), problem: true)
        case .unchanged?:
            say("\(verb): nothing to save.")
        case .notFound?:
            recordWasDeleted()
        }
        focusChanged()
        keepFocusVisible()
    }

    /// Another writer deleted the record: said on the message line, and the
    /// form stays open, so that what was typed is on the screen to read (and
    /// copy) rather than gone with it; a save says so again, and leaving keeps
    /// the draft. It closed within a second, with keys still being typed.
    func recordWasDeleted() {
        recordDeleted = true
        let subject = "\(form.name) \(session.key?.typedText ?? "")"
        say("\(subject) was deleted elsewhere: nothing saves to it; Esc leaves"
            + (session.hasUnsavedChanges ? ", keeping a draft." : "."), problem: true)
    }

    /// Takes what other writers committed, when the session heard a commit
    /// (nothing is read otherwise): untouched fields show the new values, and
    /// the message line names them; a dirty field changed underneath is marked
    /// and goes to the conflict screen on Ctrl-S.
    ///
    /// A deleted record leaves the form open (`recordWasDeleted`).
    ///
    /// - throws: the backend's error.
    func takeExternalChanges() throws {
        guard let change = try session.takeExternalChanges() else { return }
        if change.deleted {
            recordWasDeleted()
            return
        }
        // A field the conflict screen already offers (the save met the commit before it was heard) is not news.
        var choosing: Set<String> = []
        if case .conflicts(let choice)? = overlay { choosing = Set(choice.conflicts.map(\.field)) }
        let conflicts = change.conflicts.filter { !choosing.contains($0.field) }
        let rowConflicts = change.rowConflicts.filter { !choosing.contains($0.field) }
        let rows = rowNotices(change.rows, rowConflicts)
        // One sentence each, what to choose first: the message line is cut at the screen's edge.
        let clashes = conflicts.map { FieldDisplay.label($0.field, in: form) } + rows.clashes
        let taken = change.changed.map { "\(FieldDisplay.label($0, in: form)) → \(FieldDisplay.current($0, in: session))" } + rows.taken
        var parts: [String] = []
        if !clashes.isEmpty { parts.append("Changed by someone else too: \(clashes.joined(separator: ", ")) (Ctrl-S to choose).") }
        if !taken.isEmpty { parts.append("Changed by someone else: \(taken.joined(separator: "; ")).") }
        guard !parts.isEmpty else { return }
        say(parts.joined(separator: " "), problem: !clashes.isEmpty)
        // The focused field's text shows the value it took (it was not typed in: else it would conflict).
        if let focus, change.changed.contains(focus), cell == nil { focusChanged() }
        // So does the focused cell of a row that took a change.
        if let cell, change.rows.contains(where: { row in
            guard row.row == cell.row, case .changed(let fields) = row.kind else { return false }
            return cell.field.map(fields.contains) ?? false
        }) { cellChanged() }
        keepFocusVisible()
    }

    /// What another writer did to the rows, by place as the table shows them
    /// (`Lines row 2 changed (Amount), row 3 added, 1 row deleted`), and
    /// what it changed of the rows edited here (`1 edited cell or row of Lines`).
    private func rowNotices(_ changed: [ExternalRowChange], _ conflicts: [FieldConflict]) -> (taken: [String], clashes: [String]) {
        var parts: [String] = []
        var clashing: [String] = []
        let groups = Set(changed.map(\.group)).union(conflicts.compactMap { $0.field.split(separator: "[").first.map(String.init) })
        for group in form.groups.map(\.key) where groups.contains(group) {
            let rows = session.rows(group), fields = form.group(group)?.fields ?? []
            func place(_ id: String?) -> String { id.flatMap { id in rows.firstIndex { $0.id == id } }.map { "row \($0 + 1)" } ?? "a row" }
            var said: [String] = []
            for row in changed where row.group == group {
                switch row.kind {
                case .changed(let changed):
                    let labels = changed.map { key in fields.first { $0.key == key }?.label ?? key }
                    said.append("\(place(row.row)) changed (\(labels.joined(separator: ", ")))")
                case .added: said.append("\(place(row.row)) added")
                case .deleted: break
                }
            }
            let deleted = changed.filter { $0.group == group && $0.kind == .deleted }.count
            if deleted > 0 { said.append("\(deleted) row\(deleted == 1 ? "" : "s") deleted") }
            if !said.isEmpty { parts.append("\(groupTitle(group)) \(said.joined(separator: ", "))") }
            let clashes = conflicts.filter { $0.field.hasPrefix(group + "[") }.count
            if clashes > 0 {
                clashing.append("\(clashes) edited \(clashes == 1 ? "cell or row" : "cells or rows") of \(groupTitle(group))")
            }
        }
        return (parts, clashing)
    }

    /// Whether someone else changed `key` underneath an edit not saved yet.
    func isChangedUnderneath(_ key: String) -> Bool {
        session.externalConflicts.contains { $0.field == key }
    }
}
