import FormCore

/// A save the form or the stored record refused: nothing was written.
/// `CLIError.classifying` turns it into the message, one detail line per
/// field, and the exit code.
struct RecordRejected: Error {
    enum Reason: Sendable {
        /// Validation failed (exit 65).
        case invalid([FieldError])
        /// The record changed since it was read (exit 75).
        case conflict([FieldConflict])
        /// A revert's field no longer holds what its history last recorded
        /// (someone changed it since, or outside FormStore): putting it back
        /// would overwrite that, now or on any retry (exit 75). `base` is what
        /// the history recorded, `mine` what the revert puts back, `theirs` what
        /// it holds. `againBy`: the field was changed again by a later change
        /// of the history (`later`), which reverting `change` would undo too.
        case changedSinceHistory([FieldConflict], againBy: (later: Int64, change: Int64)? = nil)
        /// The record is gone (exit 66).
        case notFound
    }

    var form: Form
    /// The record's key as a person writes it; `nil` for a new record.
    var key: String?
    var reason: Reason
}
