import FormBasics
import FormCore
import FoundationEssentials

/// `formstore edit FORM KEY --editor`: the record as a commented document in
/// `$VISUAL`/`$EDITOR`, the way `kubectl edit` works, over an opened session.
///
/// ```swift
/// let session = try FormSession.open(form, key: key, backend: store, drafts: store)
/// return try EditorEdit(session: session, launcher: EditorLauncher(environment: env),
///                       messages: terminal.errors).run()
/// ```
///
/// When the editor closes: an unchanged or empty document cancels ("Edit
/// cancelled, no changes made.", exit 0); lines that cannot be read, or values
/// the form refuses, reopen the document with the errors as comments at the top;
/// leaving that unchanged abandons the edit, keeping a draft and saying how to
/// resume (exit 65). A conflict with someone else's save reopens the document
/// with base, yours and theirs beside the field, the value line holding yours;
/// saving it with the CONFLICT block deleted (keeping yours) or theirs written
/// saves over the record as stored now. Left unchanged (an editor quit
/// without saving), it stops: nothing is saved over theirs, and the changes
/// are kept as a draft (exit 75).
///
/// Edit mode begins editing by itself. A frozen form refuses (exit 65) unless
/// only its `enabledWhenNotEditing` fields change.
///
/// - throws: `CLIError.validation` for a frozen form; `CLIError.notFound` when the
///   record was deleted meanwhile; `CLIError.failure` when the editor fails; the
///   backend's error when storage fails. The draft is flushed first.
final class EditorEdit {
    static let cancelledMessage = "Edit cancelled, no changes made."

    let session: FormSession
    private let launcher: EditorLauncher
    let messages: any TextSink
    private let notice: ResumeNotice
    private let subject: String
    private let catchesSignals: Bool
    let policy: EmptyInputPolicy
    /// The labels of the rows the form's foreign keys refer to, written beside their hints.
    private let labels: ReferenceLabels?
    private var progress = EditProgress()
    /// The whole-row conflicts of the document shown last (`render(conflicts:)`).
    private var pendingRowConflicts: [FieldConflict] = []

    /// - parameter messages: where messages go (stderr).
    /// - parameter notice: how to resume (`formstore edit FORM KEY --editor` by default).
    /// - parameter catchesSignals: install the SIGINT/SIGTERM trap while running;
    ///   tests running in-process pass false.
    /// - parameter policy: what a cleared field stores (NULL where the column allows it).
    init(session: FormSession, launcher: EditorLauncher, messages: any TextSink,
         notice: ResumeNotice? = nil, catchesSignals: Bool = true, policy: EmptyInputPolicy = EmptyInputPolicy(),
         labels: ReferenceLabels? = nil) {
        self.session = session
        self.policy = policy
        self.labels = labels
        self.launcher = launcher
        self.messages = messages
        self.notice = notice ?? ResumeNotice(form: session.form.name, key: session.key)
        self.subject = "\(session.form.name) \(session.key?.typedText ?? "(new)")"
        self.catchesSignals = catchesSignals
    }

    /// Why the document was last reopened.
    private enum Reopened {
        case errors
        case conflict(Set<String>)
        /// A draft was restored into it: saved as shown, it saves the draft.
        case restored
    }

    /// Runs the edit to its end: 0 when saved or cancelled, 65 when abandoned
    /// after an error (the changes kept as a draft).
    func run() throws -> ExitCode {
        let interrupts = InterruptGuard(session: session, notice: notice, install: catchesSignals)
        progress = interrupts.progress
        defer { interrupts.remove() }
        do {
            return try edit()
        } catch {
            session.close()
            throw error
        }
    }

    private var form: Form { session.form }

    private func edit() throws -> ExitCode {
        switch form.mode {
        case .frozen where !form.fields.contains(where: { $0.holdsValue && modeAllows($0) }):
            throw CLIError.validation("\(form.name) is frozen: its records cannot be changed")
        case .edit where !session.isEditing:
            try session.beginEditing()
        default:
            break
        }

        var shown = render()
        var reopened: Reopened?
        if let draft = session.offeredDrafts.first {
            // The draft is restored into the document, as the other faces offer it:
            // saving the document as it is saves the draft; deleting it all cancels.
            let conflicts = try restore(draft)
            shown = render(conflicts: conflicts, restoredFrom: draft)
            reopened = conflicts.isEmpty ? .restored : .conflict(Set(conflicts.map(\.field)))
        }
        // What the editor returned last time, and the errors it had.
        var previous: (document: String, errors: [String])?
        while true {
            // What a signal's handler reads the document against: the session as the document shows it.
            progress.update(from: session)
            let returned: String, notUTF8: [Int]
            do {
                (returned, notUTF8) = try launcher.edit(shown)
            } catch let failed as EditorLauncher.Failed {
                return try editorFailed(failed)
            }
            var edited = returned
            // Compared byte for byte: `==` on String takes a composed é for e + U+0301, so an
            // editor that normalizes the document (to NFC) changed nothing, or only the other fields.
            if edited.hasSameUTF8(as: shown) {
                switch reopened {
                case nil: return try cancel()
                case .errors?: return abandon(errors: numbered(previous?.errors ?? [], as: edited), document: edited)
                case .conflict(let fields)?: return abandon(conflicts: fields)
                case .restored?: break  // saved as shown: the person saves the draft
                }
            }
            // The same document again, errors and all (a script as $EDITOR): stop, as if left unchanged.
            if case .errors? = reopened, let previous, edited.hasSameUTF8(as: previous.document) {
                return abandon(errors: previous.errors, document: previous.document)
            }
            let values: [String: FieldInput]
            let rowBlocks: EditorDocument.EditedGroups
            do {
                // Bytes that are no text are not guessed at: their lines are retyped.
                guard notUTF8.isEmpty else {
                    throw EditorDocumentError.invalid(notUTF8.map {
                        InputError(line: $0, message: "not UTF-8 text (saved in another encoding?): type the line again")
                    })
                }
                (values, rowBlocks) = try readDocument(edited)
            } catch EditorDocumentError.cancelled {
                return try cancel()
            } catch EditorDocumentError.invalid(let problems) {
                keepReadLines(of: EditorDocument.blankingLines(notUTF8, of: edited))
                shown = EditorDocument.reopen(edited, problems: problems)
                reopened = .errors
                previous = (edited, problems.map(\.description))
                continue
            }

            var resubmit: Set<String> = []
            if case .conflict(let fields)? = reopened, form.mode == .free { resubmit = fields }
            // Saved after a conflict over whole rows: each still in the document is kept as the person's.
            if case .conflict? = reopened {
                for conflict in pendingRowConflicts where session.isRowConflict(conflict) {
                    try session.settleRowConflict(conflict, keepMine: true)
                }
            }
            pendingRowConflicts = []
            let changed = form.fields.filter { field in
                guard let value = values[field.key] else { return false }
                return differs(value, field.key) || resubmit.contains(field.key)
            }
            try refuseFrozen(changed)
            let (fieldProblems, saved, conflicts) = apply(changed, values: values)
            let problems = fieldProblems + applyRows(rowBlocks)
            // What others committed while the editor was open, taken once the
            // document's edits are (so a value it merely still shows is not written
            // over theirs); a field changed on both sides reopens it as a conflict at save.
            let external = try announceExternalChanges()
            progress.update(from: session)
            if !problems.isEmpty {
                // The row blocks as the session holds them now: an added row keeps its new id.
                if !rowBlocks.stated.isEmpty { edited = rowBlocks.parent + groupSection() }
                shown = EditorDocument.reopen(edited, errors: problems)
                reopened = .errors
                previous = (edited, problems)
                continue
            }
            // A field someone else changed too is shown with theirs before yours is saved over it.
            if !external.isEmpty {
                // The stored values become the base, as after a save's conflict: the document shows
                // theirs, so a save of it is over theirs. Kept on the old base, that save met the
                // same conflict again and reopened the document the person had just settled.
                try session.reload()
                progress.update(from: session)
                shown = render(conflicts: external)
                reopened = .conflict(Set(external.map(\.field)))
                continue
            }

            if form.mode == .free {
                if !conflicts.isEmpty {
                    try session.reload()
                    shown = render(conflicts: conflicts)
                    reopened = .conflict(Set(conflicts.map(\.field)))
                    continue
                }
                // A restored draft's values are still to save; anything else was saved as it was set.
                if !session.hasUnsavedChanges {
                    if saved.isEmpty { return try cancel() }
                    say("Saved \(subject): \(labels(saved)).")
                    return .success
                }
            }
            guard session.hasUnsavedChanges else { return try cancel() }
            let outcome: SaveOutcome
            do {
                outcome = try session.saveKeepingSecretsOut()
            } catch {
                // The schema's refusal (a CHECK, a value referring to no row) reopens the document, as a rule's does.
                guard case .invalid(let errors)? = SaveOutcome(refusal: error, form: form) else { throw error }
                outcome = .invalid(errors)
            }
            switch outcome {
            case .saved(let changed, _):
                say("Saved \(subject): \(labels(changed)).")
                for warning in session.warnings { say("Warning: \(describe(warning)) (stored so; left unchanged)") }
                return .success
            case .unchanged:
                return try cancel()
            case .invalid(let errors):
                shown = EditorDocument.reopen(edited, errors: errors.map(describe))
                reopened = .errors
                previous = (edited, errors.map(describe))
            case .conflict(let conflicts):
                // The stored values become the base; the person's edits stay.
                try session.reload()
                progress.update(from: session)
                shown = render(conflicts: conflicts)
                reopened = .conflict(Set(conflicts.map(\.field)))
            case .notFound:
                throw CLIError.notFound("\(subject) was deleted while you edited it; nothing was saved")
            }
        }
    }

    /// Sets each changed field from its text; returns the errors to show, the
    /// fields free mode saved, and the conflicts it met.
    /// Whether a document's value differs from what the session holds.
    private func differs(_ input: FieldInput, _ key: String) -> Bool {
        switch input {
        case .typed, .json: return !input.text.hasSameUTF8(as: session.text(key))
        case .null: return session.value(key) != .null || session.inputs[key] != nil
        case .emptyText: return session.value(key) != .text("") || session.inputs[key] != nil
        case .bytes(let data): return session.value(key) != .data(data)
        case .list(let values, _): return session.value(key) != .list(values)
        }
    }

    /// The lines of a document with errors elsewhere that read, set in the
    /// session, so its draft keeps them if the edit is abandoned (nothing a
    /// person typed is lost); the fixed document sets them again. Not in free
    /// mode, where setting a field saves it.
    private func keepReadLines(of edited: String) {
        guard form.mode != .free else { return }
        let values = EditorDocument.scan(EditorDocument.parseGroups(edited, form: form).parent, form: form).values
        let changed = form.fields.filter { field in values[field.key].map { differs($0, field.key) } ?? false }
        _ = apply(changed, values: values)
        progress.update(from: session)
    }

    /// The row blocks of an abandoned document, applied for the draft: a line
    /// that did not read keeps the edit from saving, not the rows' other
    /// changes from the draft. Applied only now, when no document follows
    /// (a `[group new]` block applied while the document is reopened would
    /// be added again by the next save). Not in free mode, where a change is saved.
    private func keepReadRows(of document: String?) {
        guard form.mode != .free, !form.groups.isEmpty, let document else { return }
        let groups = EditorDocument.parseGroups(document, form: form)
        guard !groups.stated.isEmpty else { return }
        _ = applyRows(groups)
        progress.update(from: session)
    }

    private func apply(_ fields: [Field], values: [String: FieldInput])
        -> (problems: [String], saved: [String], conflicts: [FieldConflict]) {
        var problems: [String] = []
        var saved: [String] = []
        var conflicts: [FieldConflict] = []
        for field in fields {
            do {
                switch try session.enter(field.key, values[field.key] ?? .typed(""), policy: policy) {
                case .saved?: saved.append(field.key)
                case .conflict(let found)?: conflicts += found
                case .notFound?: problems.append("\(subject) was deleted while you edited it")
                case .invalid?, .unchanged?, nil: break
                }
            } catch let refused as SessionError {
                problems.append(refused.message)
                continue
            } catch {
                problems.append(FieldDisplay.error("\(error)", of: field))
                continue
            }
            problems += session.errors(field.key).map(describe)
        }
        return (problems, saved, conflicts)
    }

    /// Whether the edit mode lets `field` change now (the session's rule, `RecordPipeline.modeRefusal`).
    private func modeAllows(_ field: Field) -> Bool {
        session.pipeline.modeRefusal(field, editing: session.isEditing) == nil
    }

    /// A frozen form takes changes to its `enabledWhenNotEditing` fields only.
    private func refuseFrozen(_ changed: [Field]) throws {
        guard form.mode == .frozen else { return }
        let refused = changed.filter { !modeAllows($0) }
        guard !refused.isEmpty else { return }
        let open = form.fields.filter { $0.holdsValue && modeAllows($0) }.map(\.label)
        throw CLIError.validation("\(form.name) is frozen: only \(open.joined(separator: ", ")) can be changed, "
            + "not \(refused.map(\.label).joined(separator: ", "))")
    }

    // MARK: Endings

    private func cancel() throws -> ExitCode {
        if session.hasUnsavedChanges || (form.mode == .edit && session.isEditing) { try session.cancel() }
        say(Self.cancelledMessage)
        return .success
    }

    /// The document was left with errors: the first is the one-line error (as
    /// any failing command gives), then where the changes are kept.
    /// `errors`, or where the document the person saved last has lines that
    /// do not read, those, numbered as that document has them: a reopened
    /// document has the errors above its lines, which moves them down.
    private func numbered(_ errors: [String], as document: String) -> [String] {
        do {
            _ = try readDocument(document)
        } catch EditorDocumentError.invalid(let problems) {
            return problems.map(\.description)
        } catch {}
        return errors
    }

    /// The editor failed or was killed: nothing is saved, and what the
    /// person had written in the document by then is kept as a draft, as a
    /// signal to the command keeps it (`InterruptGuard`).
    private func editorFailed(_ failed: EditorLauncher.Failed) throws -> ExitCode {
        progress.update(from: session)
        guard let draft = InterruptGuard.draft(progress.draft, keeping: failed.document, of: form, rows: progress.groups) else {
            // Nothing new in this document, but the session holds changes (a document reopened for its
            // errors, a restored draft): they are kept as its draft, and the resume line says so. It was missing.
            guard progress.snapshot.hasUnsavedChanges else { throw CLIError.failure("\(failed.message); nothing was saved") }
            let fallback = session.makeDraftFlusher()()
            session.close()
            messages.write("formstore: \(failed.message); nothing was saved\n"
                + notice.message("Edit abandoned", progress: progress.snapshot, fallback: fallback,
                                 unsaved: progress.draft?.shownLines(form: form) ?? []))
            return .failure
        }
        let fallback = session.makeDraftWriter()(draft)
        session.close()
        var snapshot = progress.snapshot
        snapshot.hasUnsavedChanges = true
        snapshot.hasDraftableChanges = true  // the document's draft, written above
        messages.write("formstore: \(failed.message); nothing was saved\n"
            + notice.message("Edit abandoned", progress: snapshot, fallback: fallback, unsaved: draft.shownLines(form: form)))
        return .failure
    }

    private func abandon(errors: [String], document: String?) -> ExitCode {
        keepReadRows(of: document)
        session.close()
        progress.update(from: session)
        var text = ""
        if let first = errors.first {
            let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
            text = "formstore: \(subject): the document still has errors; nothing was saved: \(first.singleLine)\(more)\n"
        }
        messages.write(text + notice.message("Edit abandoned", progress: progress.snapshot, fallback: session.draftFallback,
                                             unsaved: session.draftSnapshot.shownLines(form: form)))
        return .validationFailed
    }

    /// A document reopened on a conflict came back unchanged: nothing is
    /// saved over the other writer's values, and the person's are kept as a draft.
    private func abandon(conflicts fields: Set<String>) -> ExitCode {
        session.close()
        progress.update(from: session)
        // Fields by label, in form order; a row's cell or a whole row by its path.
        let named = form.fields.filter { fields.contains($0.key) }.map(\.label)
            + fields.filter { form.field($0) == nil }.sorted()
        messages.write("formstore: \(subject): \(named.joined(separator: ", ")) changed by someone else since you began; "
                       + "nothing was saved over it\n"
                       + notice.message("Edit abandoned", progress: progress.snapshot, fallback: session.draftFallback,
                                        unsaved: session.draftSnapshot.shownLines(form: form)))
        return .tryAgain
    }

    // MARK: Text

    /// Restores `draft` into the session, saying what it brought back and
    /// what it left out; returns the fields changed both in the draft and
    /// in the database since (the document shows them as conflicts, the draft's value kept).
    private func restore(_ draft: Draft) throws -> [FieldConflict] {
        let result = try session.restore(draft)
        let when = ValueText.shownDate(draft.updatedAt, kind: nil)
        say("Restored the unsaved draft of \(subject) from \(when)"
            + (result.restored.isEmpty ? "." : ": \(labels(result.restored))."))
        let older = session.offeredDrafts.count - 1
        if older > 0 { say("(\(older) older draft\(older == 1 ? "" : "s") too: formstore drafts \(form.name))") }
        if !result.missingFields.isEmpty {
            say("No longer on the form, left out: \(result.missingFields.joined(separator: ", ")).")
        }
        if !result.droppedSecureFields.isEmpty {
            say("Warning: " + Draft.droppedSecureWarning(result.droppedSecureFields, in: form))
        }
        // Yours on the value line, as a save's conflict shows it. Free mode
        // would save it at once, so there the line holds the stored value and
        // the person is told theirs.
        if form.mode == .free {
            for conflict in result.conflicts {
                let mine = form.field(conflict.field).map { $0.format(conflict.mine) } ?? "\(conflict.mine)"
                say("\(FieldDisplay.label(conflict.field, in: form)) changed in the database since the draft; "
                    + "the document holds the database's value (the draft's: \(mine)).")
                // Told, and the document is the person's to change: the draft's value is not kept apart.
                session.keepStoredValue(conflict)
            }
            progress.update(from: session)
            return []
        }
        for conflict in result.conflicts { try session.keepDraftValue(conflict, of: draft) }
        // A row's cell has no CONFLICT block in the document: the person is told here, the draft's value kept.
        for conflict in result.conflicts where form.field(conflict.field) == nil {
            say("Changed in the database since the draft: \(FieldDisplay.conflict(conflict, in: form)); "
                + "the document holds yours.")
        }
        progress.update(from: session)
        return result.conflicts
    }

    private func render(conflicts: [FieldConflict] = [], restoredFrom draft: Draft? = nil) -> String {
        var texts: [String: String] = [:]
        for field in form.fields where field.holdsValue && !field.isSecure { texts[field.key] = session.text(field.key) }
        let marks = conflicts.map { conflict -> EditorDocument.Conflict in
            guard let field = form.field(conflict.field) else {
                // A row's cell (`lines[11].amount`) or a whole row (`lines[11]`, deleted or changed there):
                // listed in the header, with theirs as its row field shows it; yours is in the row's block.
                let theirs = FieldDisplay.rowField(conflict.field, in: form).map { $0.format(conflict.theirs) }
                    ?? ValueText.text(conflict.theirs, kind: nil, blobsBySize: true)
                return EditorDocument.Conflict(field: conflict.field, theirs: theirs)
            }
            return EditorDocument.Conflict(field: conflict.field, theirs: field.format(conflict.theirs),
                                           base: field.format(conflict.base), yours: session.text(conflict.field))
        }
        // A whole row deleted on one side and changed on the other: kept as yours if the person saves.
        pendingRowConflicts = conflicts.filter { session.isRowConflict($0) }
        let emptyText = Set(texts.keys.filter { session.value($0) == .text("") && session.inputs[$0] == nil })
        // `1 (AC/DC)`: the row each foreign key refers to now, as `show` names it.
        var referred: [String: String] = [:]
        if let labels {
            for field in form.fields where session.inputs[field.key] == nil && !field.isSecure {
                if let suffix = labels.suffix(field.key, session.value(field.key)) {
                    referred[field.key] = field.format(session.value(field.key)) + " " + suffix
                }
            }
        }
        let hidden = Set(form.fields.filter { $0.hiddenWhen != nil && !session.isVisible($0.key) }.map(\.key))
        let disabled = Set(form.fields.filter { $0.disabledWhen != nil && form.isDisabled($0, values: session.current, editing: session.isEditing) }.map(\.key))
        return EditorDocument.render(form: form, values: texts, conflicts: marks, subject: subject, emptyText: emptyText,
                                     referred: referred, restored: draft.map { ValueText.shownDate($0.updatedAt, kind: nil) },
                                     hidden: hidden, disabled: disabled)
            + groupSection()
    }

    private func describe(_ error: FieldError) -> String {
        guard let key = error.field, let field = form.field(key) else { return error.message }
        return FieldDisplay.error(error.message, of: field)
    }

    private func labels(_ keys: [String]) -> String {
        keys.map { FieldDisplay.label($0, in: form) }.joined(separator: ", ")
    }

    private func say(_ line: String) {
        messages.write(line + "\n")
    }
}

@available(*, unavailable)
extension EditorEdit: Sendable {}
