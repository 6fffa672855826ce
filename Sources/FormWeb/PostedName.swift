public import FormCore
/// The names a record page's inputs are posted under. A field's is its key
/// with a leading `_` doubled, so that no field can be taken for one of the
/// page's own members (`_csrf`, `_base`, `_fields`, `_secure`, `_groups`, `_rows`,
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

    /// Whether a posted member carries a secure field's value, a group's cell
    /// (`lines[2].pin`) as its field's: `secure` holds the secure fields'
    /// keys, the form's and its groups'. A name of the page's own is not.
    public static func isSecure(_ name: String, among secure: Set<String>) -> Bool {
        guard let key = key(of: fieldName(name)) else { return false }
        return secure.contains(key)
    }

    /// The field's posted name in a member's: a cell's (`lines[2].pin`) after its row's, any other whole.
    static func fieldName(_ name: String) -> String {
        guard let close = name.firstIndex(of: "]"), name[close...].hasPrefix("].") else { return name }
        return String(name[name.index(close, offsetBy: 2)...])
    }

    /// The keys of a form's secure fields, its groups' too: what a page never draws back.
    public static func secureKeys(of form: Form) -> Set<String> {
        Set((form.fields + form.groups.flatMap(\.fields)).filter(\.isSecure).map(\.key))
    }

    /// The keys a page's list member holds (`_fields`, `_secure`: a JSON list of
    /// names); nil when it is no such list.
    public static func keys(listedIn json: String) -> [String]? {
        WebJSON.decoded([String].self, from: json)
    }
}
