/// What `FormSession.save()` validates before it writes a stored record.
/// (A new record is always validated whole.)
public enum SaveValidation: Sendable, Hashable {
    /// The fields that changed, and the form rules naming one of them (or no
    /// field): a rule that an untouched stored value already breaks is a
    /// warning, not an error. The default for a stored record: the row may have
    /// been written by another application, and a rule it never followed must
    /// not block an edit of some other field.
    case changes
    /// Every visible field and every form rule, as `validateAll()`: for a
    /// model the application holds itself (`FormSession.bound(to:)`), where an
    /// untouched value is a default nobody has answered yet (terms not accepted).
    case everything
}
