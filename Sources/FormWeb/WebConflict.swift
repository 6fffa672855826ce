/// A field both the person and someone else changed since the page was drawn,
/// each value as the browser shows it.
public struct WebConflict: Sendable, Hashable {
    public var field: String
    /// The value when the page was drawn.
    public var base: String
    /// What the person typed.
    public var mine: String
    /// What is stored now.
    public var theirs: String
    /// For a row of a repeating group: the group, the session's row id, and
    /// the row field (`nil` when the row itself is the conflict: one side
    /// removed it, the other changed it).
    public var group: String?
    public var row: String?
    public var rowField: String?

    public init(field: String, base: String, mine: String, theirs: String,
                group: String? = nil, row: String? = nil, rowField: String? = nil) {
        self.field = field
        self.base = base
        self.mine = mine
        self.theirs = theirs
        self.group = group
        self.row = row
        self.rowField = rowField
    }
}

/// What applying a browser's post did to a session.
public struct SubmissionResult: Sendable, Hashable {
    /// Fields changed on both sides: nothing may be saved until the person chooses.
    public var conflicts: [WebConflict] = []
    /// Members the session refused: an unknown, read-only or hidden field.
    public var refused: [FieldRefusal] = []
    /// Each group's rows as posted: the session's row id at each place
    /// (1-based place `n` is index `n - 1`; `nil` for a row left out), for
    /// `FormSession.perform(_:rows:)`.
    public var postedRows: [String: [String?]] = [:]

    public var isClean: Bool { conflicts.isEmpty && refused.isEmpty }
}

/// A member of a post that names a field the session would not change.
public struct FieldRefusal: Sendable, Hashable {
    public var field: String
    public var message: String
}
