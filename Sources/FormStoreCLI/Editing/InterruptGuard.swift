import FoundationEssentials
import Glibc
import FormCore
import Synchronization

/// Installs a `SignalTrap` for an edit: on SIGINT, SIGTERM, SIGHUP or SIGQUIT
/// a running editor is ended and its document removed — what the person had
/// saved in it kept in the draft —, the draft is flushed,
/// the terminal restored (echo back on after a password prompt), the resume
/// notice printed, and the process exits with 1.
///
/// At the prompts (`keepsTypedLine`), the answer half typed when the signal
/// came is kept in the draft as the field's input (`TypedLine`), not lost
/// with the terminal's line.
struct InterruptGuard {
    let progress = EditProgress()
    private let trap: SignalTrap
    /// The terminal's settings before `TypedLine.keep()`, put back by `remove()`.
    private let keptLine: termios?

    init(session: FormSession, notice: ResumeNotice, install: Bool, keepsTypedLine: Bool = false) {
        let flush = session.makeDraftFlusher()
        let write = session.makeDraftWriter()
        let form = session.form
        let progress = self.progress
        progress.update(from: session)
        if install {
            trap = SignalTrap.install { _ in
                var snapshot = progress.snapshot
                var fallback: DraftAutosaver.Fallback?
                var unsaved = progress.draft
                if let document = EditorLauncher.endRunningEditor(),
                   let draft = Self.draft(progress.draft, keeping: document, of: form, rows: progress.groups) {
                    fallback = write(draft)
                    unsaved = draft
                    snapshot.hasUnsavedChanges = true
                    snapshot.hasDraftableChanges = true  // the document's draft, written above
                } else if keepsTypedLine, let key = progress.asking,
                          let kept = progress.keeping(typed: TypedLine.take().map { (key, $0) }, of: form, write: write) {
                    // The answer being typed: the field's input, parsed when the draft is restored.
                    (snapshot, fallback, unsaved) = kept
                } else {
                    fallback = flush()
                }
                return ("\n" + notice.message("Interrupted", progress: snapshot, fallback: fallback,
                                               unsaved: unsaved?.shownLines(form: form) ?? []),
                        .failure)
            }
        } else {
            trap = SignalTrap.inert
        }
        keptLine = install && keepsTypedLine ? TypedLine.keep() : nil
    }

    func update(from session: FormSession) { progress.update(from: session) }

    func remove() {
        trap.remove()
        if let keptLine { TypedLine.release(keptLine) }
    }

    /// The session's draft with the fields the person changed in the document
    /// (as typed, to be parsed when restored) and the child rows they changed
    /// (`--children`: applied to `rows`, the groups' rows as the document
    /// showed them); `nil` when they changed nothing. Secure fields are never
    /// kept; the lines that read are kept from a document with a bad line elsewhere.
    static func draft(_ draft: Draft?, keeping document: EditorLauncher.CutShort, of form: Form,
                      rows: [String: GroupRowsSnapshot] = [:]) -> Draft? {
        guard var draft else { return nil }
        let opened = EditorDocument.parseGroups(document.opened, form: form)
        let saved = EditorDocument.parseGroups(document.saved, form: form)
        let read = { (part: String) in EditorDocument.scan(part, form: form).values.mapValues(\.text) }
        let shown = read(opened.parent)
        let typed = read(saved.parent).filter { key, text in shown[key] != text && form.field(key)?.isSecure != true }
        var groups = draft.groups ?? [:]
        for group in form.groups where saved.stated.contains(group.key) {
            guard let before = rows[group.key] else { continue }
            let after = before.applying(saved.rows.filter { $0.group == group.key }, of: group, in: form)
            if after != before { groups[group.key] = after.draft(of: group) }
        }
        guard !typed.isEmpty || groups != (draft.groups ?? [:]) else { return nil }
        for (key, text) in typed {
            draft.inputs[key] = text
            draft.values[key] = nil
        }
        draft.groups = groups.isEmpty ? nil : groups
        draft.updatedAt = Date()
        return draft
    }
}

/// What a signal handler may know about an edit in progress. The loop updates
/// it after every change; the trap's queue reads it.
final class EditProgress: Sendable {
    struct Snapshot: Sendable, Hashable {
        var hasUnsavedChanges = false
        /// Labels of changed secure fields: a draft leaves them out.
        var secureFieldsChanged: [String] = []
        /// Whether a change a draft keeps was made: one beside the secure fields'.
        var hasDraftableChanges = false
    }

    private let state = Mutex(Snapshot())
    private let latestDraft = Mutex<Draft?>(nil)
    private let latestGroups = Mutex<[String: GroupRowsSnapshot]>([:])
    private let askedField = Mutex<String?>(nil)
    private let typedField = Mutex<(key: String, text: String)?>(nil)

    /// A field's text typed and not yet entered into the session (free
    /// mode's full-screen field, entered when it is left); nil when none is.
    var typing: (key: String, text: String)? {
        get { typedField.withLock { $0 } }
        set { typedField.withLock { $0 = newValue } }
    }

    /// The draft with `typed` (a field's text not yet entered: a prompt's
    /// answer half typed, free mode's field) as that field's input, written
    /// by `write`; with what the interrupt says of it. Nil when nothing is
    /// typed, or the field is secure: a secret is never kept.
    func keeping(typed: (key: String, text: String)?, of form: Form,
                 write: (Draft) -> DraftAutosaver.Fallback?) -> (Snapshot, DraftAutosaver.Fallback?, Draft?)? {
        guard let typed, form.field(typed.key)?.isSecure != true, var draft else { return nil }
        draft.inputs[typed.key] = typed.text
        draft.values[typed.key] = nil
        draft.updatedAt = Date()
        var snapshot = self.snapshot
        snapshot.hasUnsavedChanges = true
        snapshot.hasDraftableChanges = true
        return (snapshot, write(draft), draft)
    }

    /// The field whose answer the prompts are reading now; `nil` between questions.
    var asking: String? {
        get { askedField.withLock { $0 } }
        set { askedField.withLock { $0 = newValue } }
    }

    var snapshot: Snapshot { state.withLock { $0 } }
    /// The session's unsaved state as a draft, as of the last update.
    var draft: Draft? { latestDraft.withLock { $0 } }
    /// The repeating groups' rows, as of the last update.
    var groups: [String: GroupRowsSnapshot] { latestGroups.withLock { $0 } }

    /// Takes the session's state now (on the session's own thread).
    func update(from session: FormSession) {
        let next = Snapshot(session)
        let draft = session.draftSnapshot
        let groups = Dictionary(session.form.groups.map { ($0.key, session.groupRows($0.key)) }, uniquingKeysWith: { a, _ in a })
        state.withLock { $0 = next }
        latestDraft.withLock { $0 = draft }
        latestGroups.withLock { $0 = groups }
    }
}

extension EditProgress.Snapshot {
    init(_ session: FormSession) {
        hasUnsavedChanges = session.hasUnsavedChanges
        let dirty = Set(session.dirtyFields)
        let secure = session.form.fields.filter { $0.isSecure && (dirty.contains($0.key) || session.inputs[$0.key] != nil) }
        secureFieldsChanged = secure.map(\.label)
        let secureKeys = Set(secure.map(\.key))
        hasDraftableChanges = !session.dirtyGroups.isEmpty || dirty.contains { !secureKeys.contains($0) }
            || session.inputs.keys.contains { !secureKeys.contains($0) } || !session.unsettledDraftFields.isEmpty
    }
}
