/// A session's undo and redo stacks.
///
/// An edit step is one field's change; further edits of the same field extend
/// it (a run of keystrokes is one step) until another field is edited, the
/// field is committed, or a step is undone. A save step is a saved update:
/// it takes the place of the edit steps it saved, and undoing it is a new save.
struct UndoSteps {
    /// A field's value and the raw input it showed (when that did not parse).
    struct FieldState: Hashable {
        var value: FieldValue
        var input: String?
    }

    enum Step: Hashable {
        case edit(field: String, before: FieldState, after: FieldState)
        case save(fields: [String], before: [String: FieldValue], after: [String: FieldValue], rows: SavedRows)

        /// The fields and groups the step changes.
        var fields: [String] {
            switch self {
            case .edit(let field, _, _): return [field]
            case .save(let fields, _, _, let rows): return fields + rows.groups
            }
        }
    }

    /// How many steps are kept: a session open for hours must not grow without end.
    static let limit = 100

    var done: [Step] = []
    var undone: [Step] = []
    /// The field whose run of edits is still open.
    var openRun: String?
    /// Counts saves, so an edit that saved itself (free mode) is not also an edit step.
    var saves = 0
    /// Set while `undo()` or `redo()` saves: that save is the step itself, not a new one.
    var replaying = false

    /// Records an edit of `field`, extending the open run of that field.
    mutating func edit(_ field: String, before: FieldState, after: FieldState) {
        undone = []
        if openRun == field, case .edit(field, let first, _)? = done.last {
            done[done.count - 1] = .edit(field: field, before: first, after: after)
            if first == after { done.removeLast() }
            return
        }
        done.append(.edit(field: field, before: before, after: after))
        openRun = field
        trim()
    }

    /// Records a save of `fields`: the edit steps of those fields since the
    /// previous save become part of it.
    mutating func save(_ fields: [String], before: [String: FieldValue], after: [String: FieldValue],
                       rows: SavedRows = SavedRows()) {
        saves += 1
        guard !replaying else { return }
        undone = []
        openRun = nil
        let saved = Set(fields)
        // Only the steps since the previous save are looked at (walking back to it), in place.
        var index = done.count - 1
        while index >= 0 {
            if case .save = done[index] { break }
            if case .edit(let field, _, _) = done[index], saved.contains(field) { done.remove(at: index) }
            index -= 1
        }
        done.append(.save(fields: fields, before: before, after: after, rows: rows))
        trim()
    }

    private mutating func trim() {
        if done.count > Self.limit { done.removeFirst(done.count - Self.limit) }
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
