import FormBasics
import FormCore
import FoundationEssentials

/// `formstore edit FORM KEY` on prompts: one field at a time, on a terminal or
/// from lines on stdin, over an opened session.
///
/// ```swift
/// let session = try FormSession.open(form, key: key, backend: store, drafts: store)
/// let prompter = Prompter(input: ByteSourceLines(terminal.input, echoSink: terminal.errors),
///                         output: terminal.errors)
/// return try PromptEdit(session: session, prompter: prompter).run()
/// ```
///
/// A draft the record has is offered first. Edit mode shows the record and asks
/// to begin; a frozen form asks only its `enabledWhenNotEditing` fields; free mode
/// saves each field as it is entered; save and edit modes end with a summary of
/// the changes and ask to save. Ctrl-C, SIGTERM or the end of input keep a draft
/// and say how to resume (exit 1).
///
/// - throws: `CLIError.validation` for a frozen form with nothing to change, or
///   invalid fields the prompts cannot reach; `CLIError.notFound` when the record
///   was deleted meanwhile; the backend's error when storage fails (the draft is
///   flushed first).
final class PromptEdit {
    let session: FormSession
    let prompter: Prompter
    private let notice: ResumeNotice
    private let catchesSignals: Bool
    let policy: EmptyInputPolicy
    /// The labels of the rows the form's foreign keys refer to, said after their values.
    private let labels: ReferenceLabels?
    private var progress = EditProgress()
    /// Whether the person was told that no draft can be kept (once).
    private var warnedOfNoDraft = false

    /// - parameter notice: how to resume (`formstore edit FORM KEY` by default).
    /// - parameter catchesSignals: install the SIGINT/SIGTERM trap while running;
    ///   tests running in-process pass false.
    /// - parameter policy: what a cleared field stores (NULL where the column allows it).
    init(session: FormSession, prompter: Prompter, notice: ResumeNotice? = nil, catchesSignals: Bool = true,
         policy: EmptyInputPolicy = EmptyInputPolicy(), labels: ReferenceLabels? = nil) {
        self.session = session
        self.labels = labels
        self.prompter = prompter
        self.policy = policy
        self.notice = notice ?? ResumeNotice(form: session.form.name, key: session.key)
        self.catchesSignals = catchesSignals
    }

    /// The end of input, reached in the middle of a question.
    struct EndOfInput: Error {}

    /// Runs the edit to its end; returns 0 when saved, discarded or left unchanged,
    /// 1 when interrupted with the changes kept as a draft.
    func run() throws -> ExitCode {
        let interrupts = InterruptGuard(session: session, notice: notice, install: catchesSignals, keepsTypedLine: true)
        progress = interrupts.progress
        defer { interrupts.remove() }
        do {
            return try edit()
        } catch is EndOfInput {
            session.close()
            progress.update(from: session)
            prompter.say("")
            let text = notice.message("End of input", progress: progress.snapshot, fallback: session.draftFallback,
                                      unsaved: session.draftSnapshot.shownLines(form: session.form))
            prompter.say(String(text.dropLast()))
            return .failure
        } catch {
            session.close()
            throw error
        }
    }

    private var form: Form { session.form }

    private func edit() throws -> ExitCode {
        try offerDraft()
        switch form.mode {
        case .edit where !session.isEditing:
            showRecord()
            guard try confirm("Begin editing?", default: true) else {
                prompter.say("No changes made.")
                return .success
            }
            try session.beginEditing()
        case .frozen:
            let open = askableFields().map(\.label)
            guard !open.isEmpty else {
                throw CLIError.validation("\(form.name) is frozen: its records cannot be changed")
            }
            prompter.say("\(form.name) is frozen: only \(open.joined(separator: ", ")) can be changed.")
        default:
            break
        }

        prompter.say(Prompter.inputHelp)
        var pending: Set<String>? = nil  // nil: every field
        while true {
            if pending != [] { try askFields(only: pending) }
            if pending == nil || pending == [] && !session.groupErrors.isEmpty { try askGroups() }
            if form.mode == .free {
                prompter.say("Done: each change was saved as it was entered.")
                return .success
            }
            guard session.hasUnsavedChanges else {
                if form.mode == .edit && session.isEditing { try session.cancel() }
                prompter.say("No changes made.")
                return .success
            }
            try announceExternalChanges()
            warnIfNoDraftIsKept()
            showSummary()
            guard try confirm("Save changes?", default: true) else {
                if let warning = session.unsavedChangesWarning, !(try confirm(warning, default: false)) {
                    pending = nil  // back to the fields
                    continue
                }
                try session.cancel()
                prompter.say("Changes discarded.")
                return .success
            }
            let outcome: SaveOutcome
            do {
                outcome = try session.saveKeepingSecretsOut()
            } catch {
                // The schema's refusal (a CHECK, a value referring to no row): the fields it names are
                // asked again, as the full-screen form puts the focus on them, with what was typed kept.
                guard let refused = SaveOutcome(refusal: error, form: form) else { throw error }
                outcome = refused
            }
            switch outcome {
            case .saved(let changed, _):
                prompter.say("Saved: \(changed.map { FieldDisplay.label($0, in: form) }.joined(separator: ", ")).")
                for warning in session.warnings { prompter.say("  warning: \(warning.message) (stored so; left unchanged)") }
                return .success
            case .unchanged:
                prompter.say("No changes made.")
                return .success
            case .invalid(let errors):
                pending = try fieldsToFix(errors)
            case .conflict(let conflicts):
                try resolve(conflicts)
                pending = []
            case .notFound:
                throw CLIError.deletedWhileEditing(session)
            }
        }
    }

    // MARK: Drafts

    /// Once the autosave found nowhere to keep the draft (no writable
    /// database, sidecar or state folder), the person is told at once, not
    /// only when the edit ends: a killed process would lose what was typed.
    private func warnIfNoDraftIsKept() {
        guard !warnedOfNoDraft, session.hasUnsavedChanges, let fallback = session.draftFallback, fallback.isNowhere else { return }
        warnedOfNoDraft = true
        prompter.say(notice.noDraftWarning(fallback))
    }

    private func offerDraft() throws {
        guard let draft = session.offeredDrafts.first else { return }
        let older = session.offeredDrafts.count - 1
        let changed = draft.changedFields.map { FieldDisplay.label($0, in: form) }
            + draft.changedGroups.map { FieldDisplay.groupTitle($0, in: form) }
        prompter.say("There is an unsaved draft of this record from \(ValueText.shownDate(draft.updatedAt, kind: nil))"
            + " (\(changed.joined(separator: ", "))).")
        if older > 0 { prompter.say("(\(older) older draft\(older == 1 ? "" : "s") too: formstore drafts \(form.name))") }
        guard try confirm("Restore it?", default: true) else {
            if try confirm("Discard it?", default: false) {
                try session.discard(draft)
                prompter.say("Draft discarded.")
            } else {
                prompter.say("The draft is kept; it is offered again next time.")
            }
            return
        }
        let result = try session.restore(draft)
        if !result.restored.isEmpty {
            prompter.say("Restored: \(result.restored.map { FieldDisplay.label($0, in: form) }.joined(separator: ", ")).")
        }
        if !result.missingFields.isEmpty {
            prompter.say("No longer on the form, left out: \(result.missingFields.joined(separator: ", ")).")
        }
        if !result.droppedSecureFields.isEmpty {
            prompter.say("Warning: " + Draft.droppedSecureWarning(result.droppedSecureFields, in: form))
        }
        if !result.conflicts.isEmpty {
            prompter.say("Changed both in the draft and in the database since the draft was made:")
            for conflict in result.conflicts {
                prompter.say("  " + FieldDisplay.conflict(conflict, in: form))
                let label = FieldDisplay.label(conflict.field, in: form)
                if try confirm("Keep yours for \(label)? (no takes theirs)", default: true) {
                    do {
                        try report(try session.keepDraftValue(conflict, of: draft), field: conflict.field)
                    } catch let error as SessionError {
                        prompter.say("  ! \(error.message)")
                    }
                } else {
                    session.keepStoredValue(conflict)
                }
            }
        }
        progress.update(from: session)
    }

    // MARK: Fields

    /// The fields a person can change now, in form order.
    private func askableFields() -> [Field] {
        session.visibleFields.filter { $0.holdsValue && session.whyNotEditable($0.key) == nil }
    }

    private func askFields(only keys: Set<String>?) throws {
        for field in form.fields where keys?.contains(field.key) ?? true {
            // Asked in turn: an answer may show, hide or disable later fields.
            guard field.holdsValue, session.isVisible(field.key), session.whyNotEditable(field.key) == nil else { continue }
            try ask(field)
        }
    }

    private func ask(_ field: Field) throws {
        let key = field.key
        try announceExternalChanges()
        warnIfNoDraftIsKept()
        var error = message(session.errors(key))
        // What the field held when asked: after a refused answer, Enter puts it back (and the
        // brackets show it), where it kept the refused text and asked again for ever.
        let asked = (value: session.value(key), input: session.inputs[key], text: session.shownText(key))
        while true {
            let answered = session.value(key) != asked.value || session.inputs[key] != asked.input
            let referred = session.inputs[key] == nil ? labels?.suffix(key, session.value(key)) : nil
            progress.asking = key
            let answer = prompter.ask(field, current: answered ? asked.text : session.shownText(key),
                                      referred: answered ? nil : referred, error: error)
            progress.asking = nil
            guard let answer else { throw EndOfInput() }
            let outcome: SaveOutcome?
            do {
                switch answer {
                case .keep where answered:
                    if let input = asked.input { outcome = try session.set(key, input: input) } else { outcome = try session.set(key, value: asked.value) }
                    session.commit(key)
                case .keep:
                    // Free mode saves on entry: a restored value kept with Enter is entered now.
                    if form.mode == .free && (session.dirtyFields.contains(key) || session.inputs[key] != nil) {
                        outcome = try session.set(key, input: session.text(key))
                    } else {
                        session.commit(key)
                        outcome = nil
                    }
                case .value(let text) where Self.stepCommands.contains(text.trimmingSpaces()):
                    try step(text.trimmingSpaces())
                    error = message(session.errors(key))
                    continue
                case .value(let text):
                    // A secret is stored as typed: it is never shown, so no escape of it was written to read back.
                    let typed = referredKey(text, of: field) ?? text
                    outcome = try session.enter(key, Prompter.fieldInput(typed, readingEscapes: !field.isSecure), policy: policy)
                    session.commit(key)  // the person leaves the field: checks timed on commit run
                }
            } catch let refused as SessionError {
                prompter.say("  ! \(refused.message)")
                return
            }
            progress.update(from: session)
            try report(outcome, field: key)
            guard let problem = message(session.errors(key)) else { return }
            error = problem
        }
    }

    /// The key of the one referenced row whose label is `text` (any case),
    /// typed for a foreign key where the key itself is no value the field
    /// reads (`AC/DC` for 1), as the full-screen form's picker takes a label;
    /// nil otherwise. The prompt said "artist_id is not a number".
    private func referredKey(_ text: String, of field: Field) -> String? {
        guard let labels, labels.labels(field.key), !text.isEmpty, field.parseInput(text, in: form).isFailure else { return nil }
        let named = labels.choices(form, column: field.key, search: text, limit: 20)
            .filter { $0.label.lowercased() == text.lowercased() }
        guard named.count == 1 else { return nil }
        return field.format(named[0].value)
    }

    private func message(_ errors: [FieldError]) -> String? {
        errors.isEmpty ? nil : errors.map(\.message).joined(separator: "; ")
    }

    /// Free mode: what saving the field did.
    private func report(_ outcome: SaveOutcome?, field key: String) throws {
        switch outcome {
        case .saved?:
            prompter.say("  Saved \(FieldDisplay.label(key, in: form)).")
        case .conflict(let conflicts)?:
            try resolve(conflicts)
        case .notFound?:
            throw CLIError.deletedWhileEditing(session)
        case .invalid?, .unchanged?, nil:
            break
        }
    }

    /// After a refused save: the fields to ask again, with their errors shown.
    private func fieldsToFix(_ errors: [FieldError]) throws -> Set<String>? {
        prompter.say("Not saved:")
        for error in errors {
            let name = error.field.map { FieldDisplay.label($0, in: form) + ": " } ?? ""
            prompter.say("  ! \(name)\(error.message)")
        }
        let askable = Set(askableFields().map(\.key))
        // A row's cell or a group's rule: back to the group's menu.
        let blamed = Set(errors.compactMap(\.field).filter { !isGroupPath($0) })
        if blamed.isEmpty && errors.contains(where: { $0.field.map(isGroupPath) ?? false }) { return [] }
        if !blamed.isDisjoint(with: askable) { return blamed.intersection(askable) }
        // Only form-wide errors: any field may be the one to change.
        if blamed.isEmpty { return nil }
        throw CLIError.validation("cannot save: the fields at fault cannot be changed here",
                                  details: errors.map(\.description))
    }

    // MARK: Conflicts

    /// Someone else saved these fields meanwhile: the person keeps theirs or
    /// takes the stored value, field by field; the session then bases its edits
    /// on the record as stored now.
    private func resolve(_ conflicts: [FieldConflict]) throws {
        prompter.say("Not saved: someone else changed \(conflicts.count == 1 ? "this field" : "these fields") since you began:")
        for conflict in conflicts { prompter.say("  " + FieldDisplay.conflict(conflict, in: form)) }
        var keep: [FieldConflict] = []
        var take: [FieldConflict] = []
        for conflict in conflicts {
            let label = FieldDisplay.label(conflict.field, in: form)
            if try confirm("Keep yours for \(label)? (no takes theirs)", default: true) {
                keep.append(conflict)
            } else {
                take.append(conflict)
            }
        }
        try session.reload()
        for conflict in take { try report(try session.set(conflict.field, value: conflict.theirs), field: conflict.field) }
        // Free mode has no save step: a value kept is written again over the new base.
        if form.mode == .free {
            for conflict in keep { try report(try session.set(conflict.field, value: conflict.mine), field: conflict.field) }
        }
        progress.update(from: session)
    }

    // MARK: Showing

    private func showRecord() {
        prompter.say("\(form.name) \(session.key?.typedText ?? "(new)") (\(form.title)):")
        for field in session.visibleFields where field.holdsValue {
            prompter.say("  \(field.label): \(FieldDisplay.current(field.key, in: session))")
        }
    }

    private func showSummary() {
        prompter.say("Changes:")
        for field in form.fields where session.dirtyFields.contains(field.key) || session.inputs[field.key] != nil {
            let old = FieldDisplay.text(session.pristineValue(field.key), of: field)
            prompter.say("  \(field.label): \(old) → \(FieldDisplay.current(field.key, in: session))")
        }
        // Each group's rows by what was done to them: the list was empty after row edits alone.
        for change in session.groupChanges {
            var done: [String] = []
            if !change.updates.isEmpty { done.append("\(change.updates.count) edited") }
            if !change.inserts.isEmpty { done.append("\(change.inserts.count) added") }
            if !change.deletes.isEmpty { done.append("\(change.deletes.count) removed") }
            let rows = done.isEmpty ? "rows changed" : "rows " + done.joined(separator: ", ")
            prompter.say("  \(FieldDisplay.groupTitle(change.group, in: form)): \(rows)")
        }
    }

    private func confirm(_ question: String, default defaultAnswer: Bool) throws -> Bool {
        guard let answer = prompter.confirm(question, default: defaultAnswer) else { throw EndOfInput() }
        return answer
    }
}

@available(*, unavailable)
extension PromptEdit: Sendable {}
