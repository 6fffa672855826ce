import FormCore

/// Saving, cancelling, beginning an edit, conflicts and drafts: the session
/// decides; the screen asks the person and shows the outcome.
extension FormScreen {
    /// Ctrl-E in edit mode: the record becomes editable.
    func editKey() throws {
        guard form.mode == .edit else { return }
        guard !session.isEditing else { say("Already editing."); return }
        try session.beginEditing()
        focusChanged()
        say("Editing: Ctrl-S saves, Esc cancels.")
    }

    /// Ctrl-S: saves when there is something to save.
    func saveKey() throws -> Action {
        try leaveField()
        switch form.mode {
        case .free:
            say("Each field is saved as you leave it.")
            return .none
        case .edit where !session.isEditing:
            say("Nothing to save: press Ctrl-E to edit.")
            return .none
        default:
            break
        }
        guard session.hasUnsavedChanges else {
            say("No changes to save.")
            return .none
        }
        try save()
        focusChanged()
        return .none
    }

    private func save() throws {
        guard !recordDeleted else { return recordWasDeleted() }
        let outcome: SaveOutcome
        do {
            outcome = try session.saveKeepingSecretsOut()
        } catch {
            // A database locked past the busy timeout, read-only, full: said on the status line, the
            // form kept open with what was typed (a password too), to save again or leave with a draft.
            let classified = CLIError.classifying(error, databasePath: "the database file")
            if classified.exitCode == .tryAgain {
                say("Not saved: another writer holds the database (it is locked); Ctrl-S tries again.", problem: true)
                return
            }
            if classified.exitCode == .storage {
                say("Not saved: \(classified.message)", problem: true)
                return
            }
            // The schema's refusal (a CHECK, a value referring to no row): said
            // on the status line, the form kept open with what was typed.
            guard case .invalid(let errors)? = SaveOutcome(refusal: error, form: form) else { throw error }
            say("Not saved: " + errors.map(\.message).joined(separator: "; "), problem: true)
            if let first = focusableKeys.first(where: Set(errors.compactMap(\.field)).contains) { try focus(on: first) }
            return
        }
        switch outcome {
        case .saved(let changed, _):
            noteSaved(changed)
            var text = "Saved: \(changed.map { FieldDisplay.label($0, in: form) }.joined(separator: ", "))."
            if !session.warnings.isEmpty {
                text += " Warning: " + session.warnings.map(\.message).joined(separator: "; ") + " (stored so; left unchanged)"
            }
            say(text)
        case .unchanged:
            say("No changes to save.")
        case .invalid(let errors):
            let unplaced = errors.filter { $0.field.map { !focusableKeys.contains($0) } ?? true }
            let fields = Set(errors.compactMap(\.field))
            var text = "Not saved: \(fields.count == 1 ? "1 field needs" : "\(fields.count) fields need") attention."
            if !unplaced.isEmpty { text = "Not saved: " + unplaced.map(\.message).joined(separator: "; ") }
            say(text, problem: true)
            if let first = focusableKeys.first(where: fields.contains) {
                try focus(on: first)
            } else if let path = errors.compactMap(\.field).first(where: { $0.contains("[#") }) {
                focusCell(at: path)
            }
        case .conflict(let conflicts):
            overlay = .conflicts(ConflictChoice(conflicts: conflicts, keepMine: conflicts.map { _ in true }))
        case .notFound:
            recordWasDeleted()
        }
    }

    /// Esc: leaves, asking first when something is unsaved (unless the form
    /// turned its unsaved-changes warning off: then it discards at once).
    func escape() throws -> Action {
        try leaveField()
        // The record is gone: leaving says so, what was typed kept as a draft to read (exit 66).
        if recordDeleted { throw CLIError.deletedWhileEditing(session) }
        guard session.hasUnsavedChanges else {
            if form.mode == .edit && session.isEditing { try session.cancel() }
            return .quit(code: .success, farewell: farewell)
        }
        guard session.unsavedChangesWarning != nil else { return try discard() }
        overlay = .confirmDiscard
        return .none
    }

    private func discard() throws -> Action {
        try session.cancel()
        return .quit(code: .success, farewell: saved.isEmpty ? "Changes discarded."
                     : "Changes discarded; saved before: \(saved.joined(separator: ", ")).")
    }

    func handleConfirmDiscard(_ key: Key) throws -> Action {
        switch key {
        case .character("y"), .character("Y"):
            overlay = nil
            return try discard()
        case .character("n"), .character("N"), .escape:
            overlay = nil
            focusChanged()
        default:
            break
        }
        return .none
    }

    /// What is said when the form closes with nothing unsaved.
    var farewell: String {
        saved.isEmpty ? "No changes made." : "Saved: \(saved.joined(separator: ", "))."
    }

    func noteSaved(_ keys: [String]) {
        for key in keys {
            let label = FieldDisplay.label(key, in: form)
            if !saved.contains(label) { saved.append(label) }
        }
    }

    /// Free mode: what saving the field did.
    func report(_ outcome: SaveOutcome?, field key: String) throws {
        switch outcome {
        case .saved?:
            noteSaved([key])
            say("Saved \(FieldDisplay.label(key, in: form)).")
        case .conflict(let conflicts)?:
            overlay = .conflicts(ConflictChoice(conflicts: conflicts, keepMine: conflicts.map { _ in true }))
        case .notFound?:
            recordWasDeleted()
        case .invalid?, .unchanged?, nil:
            break
        }
    }

    // MARK: Conflicts

    func handleConflicts(_ key: Key, _ choice: ConflictChoice) throws -> Action {
        var choice = choice
        switch key {
        case .up, .backTab:
            choice.highlighted = max(0, choice.highlighted - 1)
        case .down, .tab:
            choice.highlighted = min(choice.conflicts.count - 1, choice.highlighted + 1)
        case .character("y"), .left:
            choice.keepMine[choice.highlighted] = true
        case .character("t"), .right:
            choice.keepMine[choice.highlighted] = false
        case .character(" "):
            choice.keepMine[choice.highlighted].toggle()
        case .enter:
            overlay = nil
            try resolve(choice)
            return .none
        default:
            break
        }
        overlay = .conflicts(choice)
        return .none
    }

    /// Applies the choices: for a refused save, the session bases its edits on
    /// the record as stored now and takes theirs where chosen; for a restored
    /// draft, yours is the draft's value, set again.
    private func resolve(_ choice: ConflictChoice) throws {
        let all = zip(choice.conflicts, choice.keepMine)
        do {
            if choice.draft == nil { _ = try session.reload() }
            // A whole row one side deleted and the other changed: kept as a new row, let go, or put back.
            let rowLevel = all.filter { session.isRowConflict($0.0) }
            let pairs = all.filter { !session.isRowConflict($0.0) }
            for (conflict, keep) in rowLevel { try session.settleRowConflict(conflict, keepMine: keep) }
            if let draft = choice.draft {
                for (conflict, keep) in pairs {
                    guard keep else {
                        session.keepStoredValue(conflict)
                        continue
                    }
                    let outcome = try session.keepDraftValue(conflict, of: draft)
                    try report(outcome, field: conflict.field)
                }
            } else {
                for (conflict, keep) in pairs where !keep {
                    try report(try session.set(conflicting: conflict.field, value: conflict.theirs), field: conflict.field)
                }
                if form.mode == .free {
                    for (conflict, keep) in pairs where keep {
                        try report(try session.set(conflicting: conflict.field, value: conflict.mine), field: conflict.field)
                    }
                }
            }
        } catch let refused as SessionError {
            say(refused.message, problem: true)
            return
        }
        focusChanged()
        if overlay == nil {
            say(form.mode == .free || !session.hasUnsavedChanges ? "Conflicts resolved."
                : "Conflicts resolved: Ctrl-S saves your choices.")
        }
    }

    // MARK: Drafts

    func handleDraft(_ key: Key, _ draft: Draft) throws -> Action {
        switch key {
        case .character("r"), .character("R"), .enter:
            overlay = nil
            let result = try session.restore(draft)
            var notes: [String] = []
            if !result.restored.isEmpty {
                notes.append("Restored: \(result.restored.map { FieldDisplay.label($0, in: form) }.joined(separator: ", ")).")
            }
            if !result.missingFields.isEmpty {
                notes.append("No longer on the form: \(result.missingFields.joined(separator: ", ")).")
            }
            if !result.droppedSecureFields.isEmpty {
                notes.append(Draft.droppedSecureWarning(result.droppedSecureFields, in: form))
            }
            say(notes.joined(separator: " "))
            if !result.conflicts.isEmpty {
                overlay = .conflicts(ConflictChoice(conflicts: result.conflicts,
                                                    keepMine: result.conflicts.map { _ in true }, draft: draft))
            }
            focusChanged()
        case .character("d"), .character("D"):
            overlay = nil
            try session.discard(draft)
            say("Draft discarded.")
        case .character("k"), .character("K"), .escape:
            overlay = nil
            say("The draft is kept; it is offered again next time.")
        default:
            break
        }
        return .none
    }
}
