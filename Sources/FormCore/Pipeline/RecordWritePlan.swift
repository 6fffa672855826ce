/// What a record's save comes to once every rule is applied (`RecordPipeline.plan`).
public enum RecordWritePlan: Sendable, Hashable {
    /// Refused: the errors in form order; nothing is written.
    case invalid([FieldError], warnings: [FieldError])
    /// A new record: every visible stored field.
    case insert([String: FieldValue], warnings: [FieldError])
    /// A stored record's changed visible stored fields, and the values they
    /// replace (the conflict check's base).
    case update(changes: [String: FieldValue], base: [String: FieldValue], warnings: [FieldError])
    /// A stored record nothing changed in.
    case unchanged(warnings: [FieldError])

    /// Rules the record's untouched values already break (see `ValidationReport`).
    public var warnings: [FieldError] {
        switch self {
        case .invalid(_, let warnings), .insert(_, let warnings), .update(_, _, let warnings), .unchanged(let warnings):
            return warnings
        }
    }
}
