/// The repeating groups of a form.
extension Form {
    /// The repeating groups, in form order. Their row fields are not in `fields`:
    /// `fields` are the parent's.
    public var groups: [RowGroup] { sections.compactMap(\.group) }

    /// The group with this key, if any.
    public func group(_ key: String) -> RowGroup? { groups.first { $0.key == key } }
}
