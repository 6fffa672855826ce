/// What checking a record's values found: errors, which stop a save, and
/// warnings, which do not.
///
/// A warning is a rule that a value nobody changed already breaks in the
/// stored record (an e-mail column holding `not-an-email`, a required column
/// left empty by another application): refusing every other edit of the row
/// for it would block the person on something they did not touch.
public struct ValidationReport: Sendable, Hashable {
    /// Failures of changed fields, and of form rules that name one (or none); field errors first.
    public var errors: [FieldError]
    /// Failures of fields nobody changed, and of form rules naming only such fields.
    public var warnings: [FieldError]

    public init(errors: [FieldError] = [], warnings: [FieldError] = []) {
        self.errors = errors
        self.warnings = warnings
    }

    /// Whether a save may go ahead.
    public var isValid: Bool { errors.isEmpty }
}
