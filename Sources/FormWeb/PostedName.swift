/// The names a record page's inputs are posted under. A field's is its key
/// with a leading `_` doubled, so that no field can be taken for one of the
/// page's own members (`_csrf`, `_base`, `_fields`, `_groups`, `_rows`,
/// `_row`, a row's `._key`): a column named `_csrf` is posted as `__csrf`.
///
/// ```swift
/// PostedName.field("name")               // "name"
/// PostedName.field("_csrf")              // "__csrf"
/// PostedName.cell("lines", 2, "amount")  // "lines[2].amount"
/// PostedName.key(of: "__csrf")           // "_csrf"; nil for "_csrf", the page's own
/// ```
public enum PostedName {
    public static func field(_ key: String) -> String { key.hasPrefix("_") ? "_" + key : key }

    /// The field key a posted name stands for; nil for one of the page's own members.
    public static func key(of name: String) -> String? {
        guard name.hasPrefix("_") else { return name }
        return name.hasPrefix("__") ? String(name.dropFirst()) : nil
    }

    /// A group's rows' names start with this: `lines[`.
    static func rows(_ group: String) -> String { field(group) + "[" }

    /// Row `place` (from 1) of `group`: the start of its cells' names, `lines[2]`.
    static func row(_ group: String, _ place: Int) -> String { "\(field(group))[\(place)]" }

    /// A row's key member, `lines[2]._key`: the stored row's key, '' for a new one.
    static func rowKey(_ group: String, _ place: Int) -> String { row(group, place) + "._key" }

    /// A row's cell, `lines[2].amount`.
    static func cell(_ group: String, _ place: Int, _ field: String) -> String { row(group, place) + "." + Self.field(field) }
}
