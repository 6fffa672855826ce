import FormCore

/// The full-screen form as a model: the session, which field has the focus,
/// the line being typed, and what is open over the form (a picker, a question,
/// the conflict screen). Keys update it (`handle(_:)`), and `render` draws it
/// into a `ScreenBuffer`; it never touches the terminal, so a test drives it
/// key by key and reads the screen as text.
///
/// Like the prompts it is thin over the session: the session says what is
/// editable, parses, validates and saves; the screen only asks and shows.
final class FormScreen {
    /// Whether the status line last drawn says that no draft can be kept.
    var showsNoDraft = false
    let session: FormSession
    let policy: EmptyInputPolicy
    /// The labels of the rows the form's foreign keys refer to, shown after
    /// a key that is not being typed in (`3 (AC/DC)`, as `show` prints it).
    var labels: ReferenceLabels?
    /// The same for each group's rows, by group key: a cell's foreign key shows its row's label too.
    var rowLabels: [String: ReferenceLabels] = [:]
    /// The rows a foreign key's picker last read, for the filter it was read with.
    var referencedChoices: (field: String, filter: String, choices: [Choice], more: Bool)?
    /// The most rows a picker of referenced rows reads; past them, typing finds the rest.
    static let pickedRows = 50
    var form: Form { session.form }

    /// The field with the focus (a visible field that holds a value);
    /// `nil` while a group's table has it (`cell`).
    var focus: String?
    /// The cell of a group's table with the focus, or its add-a-row line.
    var cell: Cell?
    /// The first column of each group's table shown (wide tables scroll sideways).
    var firstColumn: [String: Int] = [:]
    /// The last drawing was "Terminal too small": keys edit nothing a person cannot see.
    var isTooSmall = false
    /// The focused field's text while it is typed in, `nil` when not editing text.
    var editor: LineEditor?
    /// The person typed in the focused field since it got the focus.
    var typed = false
    /// The focused multichoice's highlighted choice.
    var choiceCursor = 0
    var overlay: Overlay?
    /// The line above the status bar: what the last key did.
    var message: Message?
    /// The first body line shown.
    var scroll = 0
    /// Labels of the fields saved while the form was open, for the farewell.
    var saved: [String] = []
    /// Another writer deleted the record: the form stays open (what was typed
    /// can be read, and is kept as a draft on leaving), and nothing saves.
    var recordDeleted = false

    struct Message: Equatable {
        var text: String
        var isProblem: Bool
    }

    /// What is open over the form.
    enum Overlay {
        case picker(Picker)
        /// Esc with unsaved changes: discard them?
        case confirmDiscard
        /// Ctrl-X on a row: delete it?
        case confirmDeleteRow(Cell)
        /// A draft of this record, found on open.
        case draft(Draft)
        case conflicts(ConflictChoice)
    }

    /// A choice field's list, filtered by what is typed.
    struct Picker: Equatable {
        var field: String
        var filter = ""
        var highlighted = 0
        /// The row's cell it picks for, when it is a cell's (a foreign key of a group's row).
        var cell: Cell? = nil
    }

    /// The conflict screen: for each field, keep yours or take theirs.
    struct ConflictChoice {
        var conflicts: [FieldConflict]
        var keepMine: [Bool]
        var highlighted = 0
        /// Set when the conflicts come from restoring this draft (yours is the draft's).
        var draft: Draft?
    }

    /// What the loop does after a key.
    enum Action: Equatable {
        case none
        /// The edit is over: exit with `code` after saying `farewell`.
        case quit(code: ExitCode, farewell: String)
        /// Ctrl-C: keep a draft, say how to resume, exit 1.
        case interrupt
        /// Ctrl-Z: stop like any job; redraw on resume.
        case suspend
        /// Ctrl-L: the whole screen drawn again.
        case redraw
    }

    init(session: FormSession, policy: EmptyInputPolicy = EmptyInputPolicy()) {
        self.session = session
        self.policy = policy
        focus = focusableKeys.first
        if let draft = session.offeredDrafts.first { overlay = .draft(draft) }
        focusChanged()
    }

    // MARK: Fields

    /// Fields the focus can rest on, in form order: visible, holding a value.
    var focusableKeys: [String] {
        session.visibleFields.filter(\.holdsValue).map(\.key)
    }

    /// Fields whose value is typed as text (not a checkbox or a list of choices).
    static func isTyped(_ field: Field) -> Bool {
        switch field.kind {
        case .bool, .choice, .multichoice: return false
        default: return field.choices.isEmpty
        }
    }

    var focusedField: Field? { focus.flatMap(form.field) }

    /// Moves the focus by `step` stops (wrapping), leaving the current one first.
    /// Moves the focus `step` stops on: one step wraps round the form (Tab
    /// from the last field to the first), a page stops at either end.
    func moveFocus(by step: Int) throws {
        try leaveField()
        try leaveCell()
        let all = stops
        guard !all.isEmpty else { focus = nil; cell = nil; return }
        if let here = currentStop, let index = all.firstIndex(of: here) {
            let next = abs(step) == 1 ? (index + step + all.count) % all.count : min(max(index + step, 0), all.count - 1)
            go(to: all[next])
        } else {
            go(to: all[0])
        }
    }

    /// Puts the focus on `key` (after a refused save: the first field at fault).
    func focus(on key: String) throws {
        guard focusableKeys.contains(key) else { return }
        try leaveField()
        try leaveCell()
        cell = nil
        focus = key
        focusChanged()
    }

    /// A field that a change hid loses the focus to the next one shown.
    func keepFocusVisible() {
        if cell != nil { keepCellPresent(); return }
        let keys = focusableKeys
        if let focus, keys.contains(focus) { return }
        let order = form.fields.map(\.key)
        let position = focus.flatMap { order.firstIndex(of: $0) } ?? 0
        focus = keys.first { (order.firstIndex(of: $0) ?? 0) > position } ?? keys.last
        focusChanged()
    }

    func focusChanged() {
        if cell != nil { cellChanged(); return }
        typed = false
        choiceCursor = 0
        editor = nil
        guard let field = focusedField, Self.isTyped(field), session.whyNotEditable(field.key) == nil else { return }
        // A secret is typed afresh: its stored value is never put on the screen.
        editor = LineEditor(field.isSecure ? "" : session.inputs[field.key] ?? session.text(field.key))
    }

    /// The person leaves the focused field: free mode saves what was typed;
    /// every mode runs the checks timed for leaving a field; the field shows
    /// its value formatted by its transformers from now on.
    func leaveField() throws {
        if cell != nil { try leaveCell(); return }
        guard let key = focus else { return }
        defer { editor = nil }
        guard typed else { return }
        typed = false
        if form.mode == .free, let editor {
            let outcome = try enter(key, editor.text)
            session.commit(key)
            try report(outcome, field: key)
        } else {
            session.commit(key)
        }
        keepFocusVisible()
    }

    /// Free mode's focused field as typed and not yet entered (it is when
    /// left), for an interrupt to keep in the draft; nil in other modes,
    /// where the session has every key.
    var typedNotEntered: (key: String, text: String)? {
        guard form.mode == .free, typed, cell == nil, let focus, let editor else { return nil }
        return (focus, editor.text)
    }

    /// The text typed so far, entered into the session: the draft follows
    /// every key, and checks timed on change run at once. Free mode waits for
    /// the person to leave the field, so a half-typed value is never saved.
    func textChanged() throws {
        guard let key = focus, let editor else { return }
        typed = true
        guard form.mode != .free else { return }
        _ = try enter(key, editor.text)
    }

    private func enter(_ key: String, _ text: String) throws -> SaveOutcome? {
        do {
            // `\N` is NULL and `""` empty text, as at the prompts (docs/terminal.md).
            return try session.enter(key, Prompter.fieldInput(text, readingEscapes: false), policy: policy)
        } catch let refused as SessionError {
            message = Message(text: refused.message, isProblem: true)
            return nil
        }
    }

    func say(_ text: String, problem: Bool = false) {
        message = Message(text: text, isProblem: problem)
    }
}

@available(*, unavailable)
extension FormScreen: Sendable {}
