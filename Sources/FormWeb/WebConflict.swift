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

    public init(field: String, base: String, mine: String, theirs: String) {
        self.field = field
        self.base = base
        self.mine = mine
        self.theirs = theirs
    }
}

/// What applying a browser's post did to a session.
public struct SubmissionResult: Sendable, Hashable {
    /// Fields changed on both sides: nothing may be saved until the person chooses.
    public var conflicts: [WebConflict] = []
    /// Members the session refused: an unknown, read-only or hidden field.
    public var refused: [FieldRefusal] = []

    public var isClean: Bool { conflicts.isEmpty && refused.isEmpty }
}

/// A member of a post that names a field the session would not change.
public struct FieldRefusal: Sendable, Hashable {
    public var field: String
    public var message: String
}
