/// What `FormSession.save()` did, for the caller to act on (PAYFormBuilder's
/// success and fail blocks).
public enum SaveOutcome: Sendable, Hashable {
    /// Written in one transaction; the keys of the fields that changed.
    case saved(changed: [String], key: RecordKey)
    /// Nothing dirty: nothing was written.
    case unchanged
    /// Nothing was written; every error found, field errors first.
    case invalid([FieldError])
    /// Nothing was written: the record changed underneath, field by field.
    case conflict([FieldConflict])
    /// Nothing was written: the record is gone.
    case notFound

    public var isSuccess: Bool {
        switch self {
        case .saved, .unchanged: return true
        default: return false
        }
    }
}

/// Something a session's observers hear about.
public enum SessionEvent: Sendable, Hashable {
    case valueChanged(field: String)
    /// A field's errors (or, with `field == nil`, the form's) changed.
    case validationChanged(field: String?)
    /// The warnings changed (`FormSession.warnings`): stored values nobody
    /// changed that break a rule.
    case warningsChanged
    case saved(changed: [String])
    case cancelled
    /// Editing began or ended (edit mode).
    case editingChanged(isEditing: Bool)
    /// Stored values were read again; these fields took new values.
    case reloaded(changed: [String])
    case deleted
    /// Someone else committed to the record (`takeExternalChanges()`): these
    /// untouched fields took the new stored values; these dirty fields were
    /// changed underneath (base, mine, theirs), before any save was tried.
    case changedExternally(changed: [String], conflicts: [FieldConflict])
    /// The same for the rows of groups: rows that took a change, and rows or
    /// cells edited here that someone else changed too (`lines[7].amount`).
    case rowsChangedExternally(rows: [ExternalRowChange], conflicts: [FieldConflict])
    /// `undo()` put these fields back (a save's fields: in a new save).
    case undone(fields: [String])
    /// `redo()` did these fields' step again.
    case redone(fields: [String])
}
