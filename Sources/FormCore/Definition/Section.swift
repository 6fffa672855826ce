/// A titled group of fields, or a repeating group of rows (`group`).
public struct Section: Sendable, Hashable {
    public var title: String?
    /// The parent's fields; empty for a repeating group, whose row fields are `group.fields`.
    public var fields: [Field]
    /// Set for a section that repeats once per child row.
    public var group: RowGroup? = nil

    public init(_ title: String? = nil, fields: [Field]) {
        self.title = title
        self.fields = fields
    }

    /// A repeating group's section.
    public init(_ title: String? = nil, group: RowGroup) {
        self.title = title
        self.fields = []
        self.group = group
    }
}
