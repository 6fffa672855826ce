import FormBasics

/// How a value is written on one line where a person reads and types it
/// (the `--editor` document, the prompts' answers and brackets): a line break
/// is `\n`, a carriage return `\r`, a tab `\t`, a backslash `\\`, and a
/// control, bidi or zero-width character `\u{1b}`. Reading undoes each; a
/// backslash before any other character is kept as typed (`\d+` stays).
///
/// Scalar by scalar, not by Character: a combining mark after a backslash
/// (or after an escape's letter) would otherwise join it into one Character
/// and the escape would be lost (found by Scripts/fuzz.sh).
enum ValueEscapes {
    /// `value` with its line breaks, tabs, backslashes and hidden characters
    /// escaped; `quotes`: a `"` too (a value the document quotes).
    static func escaped(_ value: String, quotes: Bool = false) -> String {
        var body = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": body += "\\\\"
            case "\n": body += "\\n"
            case "\r": body += "\\r"
            case "\t": body += "\\t"
            case "\"" where quotes: body += "\\\""
            case let hidden where TerminalText.isUnsafe(hidden): body += codeEscape(hidden)
            default: body.unicodeScalars.append(scalar)
            }
        }
        return body
    }

    /// `\u{1b}`: a control, bidi or zero-width character written so that a
    /// terminal shows it and reading gives it back (the database is not
    /// trusted to hold only what a terminal may print; issue 20).
    private static func codeEscape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16) + "}"
    }

    /// The text with `escaped`'s escapes (and `\"`) read back.
    static func unescaped(_ text: Substring) -> String {
        var out = ""
        var escaping = false
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if escaping, scalar == "u", let (code, rest) = codeEscape(in: scalars) {
                out.unicodeScalars.append(code)
                scalars = rest
                escaping = false
                continue
            }
            if escaping {
                switch scalar {
                case "n": out += "\n"
                case "r": out += "\r"
                case "t": out += "\t"
                case "\\", "\"": out.unicodeScalars.append(scalar)
                default:  // not an escape: kept as typed
                    out += "\\"
                    out.unicodeScalars.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if escaping { out += "\\" }
        return out
    }

    /// The scalar of a `{1b}` after `\u`, and what follows it; nil when it is not one.
    private static func codeEscape(in scalars: Substring.UnicodeScalarView.SubSequence)
        -> (Unicode.Scalar, Substring.UnicodeScalarView.SubSequence)? {
        guard scalars.first == "{", let close = scalars.prefix(8).firstIndex(of: "}") else { return nil }
        let digits = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<close]))
        guard !digits.isEmpty, let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, scalars[scalars.index(after: close)...])
    }
}
