/// The usual regular-expression syntax (ICU, JavaScript: `\d`, `(?:…)`, lazy
/// `*?`) in POSIX extended form for the C library's engine.
///
/// ```swift
/// POSIXPattern.translated(#"\d{3}-\d{4}"#)   // "[0-9]{3}-[0-9]{4}"
/// POSIXPattern.translated("(?=a)b")          // nil: look-ahead has no POSIX form
/// ```
///
/// Only whole-text matching is asked of a pattern, so lazy and possessive
/// quantifiers mean what the greedy ones do and are written as those.
enum POSIXPattern {
    /// The POSIX form, or `nil` for syntax it has no form for.
    static func translated(_ pattern: String) -> String? {
        let chars = Array(pattern)
        var out = ""
        var i = 0
        var afterQuantifier = false
        while i < chars.count {
            let c = chars[i]
            var isQuantifier = false
            switch c {
            case "\\":
                guard i + 1 < chars.count, let escaped = escape(chars[i + 1]) else { return nil }
                out += escaped
                i += 2
            case "[":
                guard let (set, next) = bracket(chars, from: i) else { return nil }
                out += set
                i = next
            case "(":
                if i + 1 < chars.count, chars[i + 1] == "?" {
                    // Only a non-capturing group has a POSIX form (a plain group).
                    guard i + 2 < chars.count, chars[i + 2] == ":" else { return nil }
                    out += "("
                    i += 3
                } else {
                    out += "("
                    i += 1
                }
            case "*", "+", "?":
                if afterQuantifier && (c == "?" || c == "+") {
                    i += 1 // lazy or possessive: the same whole-text match
                    continue
                }
                out.append(c)
                isQuantifier = true
                i += 1
            case "{":
                guard let close = chars[i...].firstIndex(of: "}") else { out += "\\{"; i += 1; continue }
                out += String(chars[i...close])
                isQuantifier = true
                i = close + 1
            default:
                out.append(c)
                i += 1
            }
            afterQuantifier = isQuantifier
        }
        return out
    }

    /// An escape outside brackets.
    private static func escape(_ c: Character) -> String? {
        switch c {
        case "d": return "[0-9]"
        case "D": return "[^0-9]"
        case "w", "W", "s", "S", "b", "B": return "\\" + String(c) // GNU extensions
        case "t": return "\t"
        case "n": return "\n"
        case "r": return "\r"
        case "f": return "\u{0C}"
        case "v": return "\u{0B}"
        default:
            // Any other letter or digit is a class, an anchor or a
            // back-reference POSIX lacks; punctuation is itself.
            if c.isLetter || c.isNumber { return nil }
            return "\\" + String(c)
        }
    }

    /// A bracket expression from `[` at `start`, with its escapes spelled the
    /// POSIX way (where a backslash is an ordinary character): a `]` first, a
    /// `-` last, a `^` anywhere but first.
    private static func bracket(_ chars: [Character], from start: Int) -> (String, Int)? {
        var i = start + 1
        var negated = false
        if i < chars.count, chars[i] == "^" { negated = true; i += 1 }
        var body = ""
        var closing = false, dash = false, caret = false, backslash = false
        var first = true
        while i < chars.count {
            let c = chars[i]
            if c == "]" && !first { break }
            first = false
            switch c {
            case "\\":
                guard i + 1 < chars.count else { return nil }
                let e = chars[i + 1]
                i += 2
                switch e {
                case "d": body += "0-9"
                case "s": body += " \t\n\r\u{0B}\u{0C}"
                case "w": body += "[:alnum:]_"
                case "t": body += "\t"
                case "n": body += "\n"
                case "r": body += "\r"
                case "]": closing = true
                case "-": dash = true
                case "^": caret = true
                case "\\": backslash = true
                default:
                    if e.isLetter || e.isNumber { return nil }
                    body.append(e)
                }
                continue
            case "[":
                // A POSIX class such as [:alpha:] passes through.
                if i + 1 < chars.count, chars[i + 1] == ":",
                   let end = (i + 2 < chars.count ? chars[(i + 2)...] : [][...]).firstIndex(of: "]"), chars[end - 1] == ":" {
                    body += String(chars[i...end])
                    i = end + 1
                    continue
                }
                body += "["
            case "]": closing = true
            case "^": caret = true
            case "-" where i + 1 < chars.count && chars[i + 1] == "]": dash = true
            case "-" where body.isEmpty: dash = true
            default: body.append(c)
            }
            i += 1
        }
        guard i < chars.count else { return nil } // no closing bracket
        if caret && body.isEmpty && !closing && !backslash {
            // Only `^` (and maybe `-`): `^` cannot come first unless negated.
            if negated { return ("[^^" + (dash ? "-" : "") + "]", i + 1) }
            return (dash ? "[-^]" : "\\^", i + 1)
        }
        var set = "[" + (negated ? "^" : "") + (closing ? "]" : "") + body + (backslash ? "\\" : "") + (caret ? "^" : "")
        if dash { set += "-" }
        return (set + "]", i + 1)
    }
}
