/// A titled group of fields.
public struct Section: Sendable, Hashable {
    public var title: String?
    public var fields: [Field]

    public init(_ title: String? = nil, fields: [Field]) {
        self.title = title
        self.fields = fields
    }
}
