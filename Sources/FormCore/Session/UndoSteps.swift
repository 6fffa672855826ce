/// A session's undo and redo stacks.
///
/// An edit step is one field's change; further edits of the same field extend
/// it (a run of keystrokes is one step) until another field is edited, the
/// field is committed, or a step is undone. A rows step is one change of a
/// repeating group's rows: a row added, removed or moved, or a cell's run of
/// keystrokes. A save step is a saved update: it takes the place of the edit
/// and rows steps it saved, and undoing it is a new save.
struct UndoSteps {
    /// A field's value and the raw input it showed (when that did not parse).
    struct FieldState: Hashable {
        var value: FieldValue
        var input: String?
    }

    /// A group's rows and the cells typed into them that did not parse (by row id, then field).
    struct RowsState: Hashable {
        var rows: [GroupRow]
        var inputs: [String: [String: String]]
    }

    enum Step: Hashable {
        case edit(field: String, before: FieldState, after: FieldState)
        case rows(group: String, before: RowsState, after: RowsState)
        /// `forms`: the stored forms the save replaced and wrote, when its store keeps them.
        case save(fields: [String], before: [String: FieldValue], after: [String: FieldValue], rows: SavedRows,
                  forms: WrittenForms?)

        /// The fields and groups the step changes.
        var fields: [String] {
            switch self {
            case .edit(let field, _, _): return [field]
            case .rows(let group, _, _): return [group]
            case .save(let fields, _, _, let rows, _): return fields + rows.groups
            }
        }
    }

    /// The open run of keystrokes in one cell of a group's row (`cell`
    /// names it): the rows step it becomes once closed.
    struct RowRun {
        var cell: String
        var group: String
        let before: RowsState
        /// Set with whether it differs from `before`, compared once per keystroke
        /// rather than at each look (the status line asks `canUndo` per redraw).
        var after: RowsState { didSet { changes = before != after } }
        private(set) var changes: Bool

        init(cell: String, group: String, before: RowsState, after: RowsState) {
            (self.cell, self.group, self.before, self.after) = (cell, group, before, after)
            changes = before != after
        }

        /// The step, unless the run came back to where it began.
        var step: Step? { changes ? .rows(group: group, before: before, after: after) : nil }
    }

    /// The open run of edits of one field: the step it becomes once closed.
    struct Run {
        var field: String
        var before: FieldState
        var after: FieldState
    }

    /// How many steps are kept: a session open for hours must not grow without end.
    static let limit = 100

    /// The steps to undo but the open run's, the last one undone first.
    /// Its first `dropped` steps are past `limit`: no longer undoable, and
    /// removed in one go once there are `limit` of them. Removing the oldest
    /// step at each new one shifted the other 99: once a session had made a
    /// hundred steps, that was most of each keystroke's bookkeeping (issue 14).
    private var closed: [Step] = []
    private var dropped = 0
    /// The last step of `closed` still kept.
    private var lastClosed: Step? { closed.count > dropped ? closed.last : nil }
    var undone: [Step] = []
    /// The field whose run of edits is still open.
    private(set) var openRun: String?
    /// The open run's step, kept apart from `closed` so that a keystroke
    /// changes its `after` in place (rewriting the array's last step showed
    /// in a keystroke's profile, issue 14); `nil` while the run changes nothing.
    private var run: Run?
    /// The open run of a cell's keystrokes; only one run, a field's or a cell's, is open at a time.
    private var rowRun: RowRun?
    /// Counts saves, so an edit that saved itself (free mode) is not also an edit step.
    var saves = 0
    /// Set while `undo()` or `redo()` saves: that save is the step itself, not a new one.
    var replaying = false

    /// Whether there is a step to undo.
    var canUndo: Bool { run != nil || rowRun?.step != nil || lastClosed != nil }

    /// The step `undo()` takes back.
    var lastDone: Step? {
        if let run { return .edit(field: run.field, before: run.before, after: run.after) }
        if let step = rowRun?.step { return step }
        return lastClosed
    }

    /// Ends the open run: its step becomes an ordinary one.
    mutating func closeRun() {
        if let run { closed.append(.edit(field: run.field, before: run.before, after: run.after)) }
        if let step = rowRun?.step { closed.append(step) }
        run = nil
        rowRun = nil
        openRun = nil
    }

    /// Records a change of `group`'s rows. A change of one cell (`cell`
    /// names it) extends the open run of that cell; any other is a step of its own.
    mutating func rows(_ group: String, cell: String?, before: RowsState, after: RowsState) {
        if let cell, rowRun?.cell == cell {
            if !undone.isEmpty { undone = [] }
            rowRun!.after = after
            return
        }
        guard before != after else { return }
        if !undone.isEmpty { undone = [] }
        closeRun()
        if let cell {
            rowRun = RowRun(cell: cell, group: group, before: before, after: after)
        } else {
            closed.append(.rows(group: group, before: before, after: after))
        }
        trim()
    }

    /// Records an edit of `field`, extending the open run of that field.
    mutating func edit(_ field: String, before: FieldState, after: FieldState) {
        if !undone.isEmpty { undone = [] }
        if openRun == field {
            if run != nil {
                run!.after = after
            } else if case .edit(field, let first, _)? = lastClosed {
                // The run had come back to where it began: it goes on from the step before it.
                closed.removeLast()
                run = Run(field: field, before: first, after: after)
            } else {
                run = Run(field: field, before: before, after: after)
                openRun = field
                trim()
                return
            }
            if run!.before == after { run = nil }
            return
        }
        closeRun()
        run = Run(field: field, before: before, after: after)
        openRun = field
        trim()
    }

    /// Records a save of `fields`: the edit steps of those fields since the
    /// previous save become part of it.
    mutating func save(_ fields: [String], before: [String: FieldValue], after: [String: FieldValue],
                       rows: SavedRows = SavedRows(), forms: WrittenForms? = nil) {
        saves += 1
        guard !replaying else { return }
        undone = []
        closeRun()
        let saved = Set(fields + rows.groups)
        // Only the steps since the previous save are looked at (walking back to it), in place.
        var index = closed.count - 1
        while index >= dropped {
            if case .save = closed[index] { break }
            if closed[index].fields.allSatisfy(saved.contains) { closed.remove(at: index) }
            index -= 1
        }
        closed.append(.save(fields: fields, before: before, after: after, rows: rows, forms: forms))
        trim()
    }

    /// Moves the last step to undo onto the steps to redo (`undoing`), or back.
    mutating func moveLast(undoing: Bool) {
        closeRun()
        if undoing {
            undone.append(closed.removeLast())
        } else {
            closed.append(undone.removeLast())
        }
    }

    /// Keeps `limit` steps, the open run's among them.
    private mutating func trim() {
        let room = run == nil && rowRun == nil ? Self.limit : Self.limit - 1
        dropped = max(dropped, closed.count - room)
        if dropped >= Self.limit {
            closed.removeFirst(dropped)
            dropped = 0
        }
    }
}

/// The rows of the groups a save wrote, as loaded before it and as stored
/// after it: undoing the save saves the rows `before` again (updates,
/// re-inserting removed rows, deleting added ones), redoing it `after`.
struct SavedRows: Hashable {
    var groups: [String] = []
    var before: [String: [[String: FieldValue]]] = [:]
    var after: [String: [[String: FieldValue]]] = [:]
}
