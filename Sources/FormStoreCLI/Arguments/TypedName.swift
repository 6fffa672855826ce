/// A name typed at the start of an argument (`set`'s `FIELD=VALUE`,
/// `--where`'s `FIELD>VALUE`), escaped as a key's values are (`KeyArgument`):
/// a backslash keeps the character after it, so a field named `a=b` is
/// typed `a\=b=1` and one named `x>y` compared as `x\>y>3`.
enum TypedName {
    /// The name before the first character of `stops` that no backslash
    /// escapes, unescaped, and the rest of `text` from that character; `nil`
    /// when no such character ends it.
    static func split(_ text: String, at stops: Set<Character>) -> (name: String, rest: Substring)? {
        var name = ""
        var escaping = false
        for index in text.indices {
            let ch = text[index]
            if escaping {
                name.append(ch)
                escaping = false
            } else if ch == "\\" {
                escaping = true
            } else if stops.contains(ch) {
                return (name, text[index...])
            } else {
                name.append(ch)
            }
        }
        return nil
    }

    /// `name` as it is typed at the start of an argument: a backslash before
    /// each backslash and each character that would end the name there
    /// (`x\y` is typed `x\\y`, `a=b` `a\=b`, a last `:` `a\:`); `split` reads it back as `name`.
    static func typed(_ name: String) -> String {
        var out = ""
        for ch in name {
            if "\\=<>!~".contains(ch) { out.append("\\") }
            out.append(ch)
        }
        // A last `:` would make `NAME:=` the JSON form.
        if name.hasSuffix(":") { out.insert("\\", at: out.index(before: out.endIndex)) }
        return out
    }

    /// `text` with each backslash's escape taken away (a trailing one is kept).
    static func unescape(_ text: some StringProtocol) -> String {
        var out = ""
        var escaping = false
        for ch in text {
            if escaping { out.append(ch); escaping = false } else if ch == "\\" { escaping = true } else { out.append(ch) }
        }
        if escaping { out.append("\\") }
        return out
    }
}
