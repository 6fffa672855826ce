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

    /// `text` kept apart from the text around it where it holds a bidi
    /// control (an override, an embedding, an isolate, a mark): wrapped in
    /// U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL ISOLATE, for a
    /// value inside a title or a heading, which no element isolates (CSS
    /// cannot reach `<title>`). Other text is given back as it is.
    public static func isolated(_ text: String) -> String {
        let controls: ClosedRange<UInt32> = 0x202A...0x202E, isolates: ClosedRange<UInt32> = 0x2066...0x2069
        guard text.unicodeScalars.contains(where: { controls.contains($0.value) || isolates.contains($0.value)
                                                    || $0.value == 0x200E || $0.value == 0x200F || $0.value == 0x061C })
        else { return text }
        return "\u{2068}" + text + "\u{2069}"
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
