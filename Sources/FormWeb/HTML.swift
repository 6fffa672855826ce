/// Escaping for HTML text and attribute values: the one place a value becomes
/// markup, so that a stored `<script>` is shown as text, never run.
public enum HTML {
    /// `s` with `& < > " '` replaced by entities: safe as element text and
    /// as a double- or single-quoted attribute value.
    ///
    /// ```swift
    /// HTML.escape(#"<script>alert("x")</script>"#)  // &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;
    /// ```
    public static func escape(_ s: String) -> String {
        // Most values need nothing: scan the bytes once before building a copy.
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0 })
        else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // A NUL is not allowed in HTML; the replacement character shows where it was.
            case "\0": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A textarea holding `text`, escaped. A newline follows the start tag:
    /// an HTML parser drops the first newline there, so text that starts
    /// with a line break keeps it (without it, an untouched save lost it).
    static func textarea(_ attributes: String, _ text: String) -> String {
        "<textarea \(attributes)>\n\(escape(text))</textarea>"
    }

    /// An id made of `prefix` and a field key: keys may hold any character,
    /// and an id must not hold white space, so everything but letters,
    /// digits, `-` and `_` is written as `.` and its code point.
    static func id(_ prefix: String, _ key: String) -> String {
        var out = prefix
        for scalar in key.unicodeScalars {
            if scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" {
                out.unicodeScalars.append(scalar)
            } else {
                out += "." + String(scalar.value, radix: 16)
            }
        }
        return out
    }
}
