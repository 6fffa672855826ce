/// The one neutraliser for text read from a database, a spec or a file on
/// its way to a terminal: cell values, column and table names, labels, draft
/// keys, SQLite's messages. A database is not trusted (issue 20): an escape
/// sequence in a column name or a trigger's `RAISE(ABORT, '\e]52;c;…\a\e[2J')`
/// could write the clipboard or clear the screen, and a bidi override could
/// make `gnp.exe` read as `exe.png`. So every control character is written as
/// a visible escape and every invisible formatting character by its code:
///
/// | in the text | shown as |
/// | --- | --- |
/// | line feed, CR, tab | `\n`, `\r`, `\t` (a line feed kept where `keepingLineBreaks`) |
/// | ESC | `\e` |
/// | other C0 controls, DEL | `\x07`, `\x7f` |
/// | C1 controls | `\u{9b}` |
/// | bidi embeddings, overrides, isolates and marks (U+202A–202E, U+2066–2069, U+200E, U+200F, U+061C) | `<U+202E>` |
/// | zero-width characters (U+200B–200D, U+2060, U+FEFF) | `<U+200B>` |
///
/// A zero-width joiner inside an emoji sequence (👩‍💻) is kept: it joins two
/// pictographs into one character and hides nothing. JSON, NDJSON and CSV
/// output are data and are written exactly; only text for people goes through here.
enum TerminalText {
    /// `text` safe to print: see the table above.
    static func neutralised(_ text: String, keepingLineBreaks: Bool = false) -> String {
        neutralised(text, keeping: keepingLineBreaks ? ["\n"] : [])
    }

    /// `text` safe for the full-screen form, which draws a line break, a tab
    /// and a carriage return as signs of their own (⏎ ⇥ ␍, `ScreenBuffer`):
    /// escaped as `\n`, they looked like the two characters typed.
    static func neutralisedForScreen(_ text: String) -> String {
        neutralised(text, keeping: ["\n", "\t", "\r"])
    }

    private static func neutralised(_ text: String, keeping kept: Set<Unicode.Scalar>) -> String {
        let keepingLineBreaks = kept.contains("\n")
        func needsEscape(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
            !kept.contains(scalar) && Self.needsEscape(scalar, keepingLineBreaks: keepingLineBreaks)
        }
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks: keepingLineBreaks) }) else {
            return text
        }
        var out = ""
        for character in text {
            let scalars = character.unicodeScalars
            for (index, scalar) in zip(scalars.indices, scalars) {
                if scalar == "\u{200D}", scalars.index(after: index) != scalars.endIndex,
                   scalars.first?.properties.isEmoji == true {
                    out.unicodeScalars.append(scalar)
                } else if needsEscape(scalar, keepingLineBreaks: keepingLineBreaks) {
                    out += escape(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        scalar == "\n" ? !keepingLineBreaks : isUnsafe(scalar)
    }

    /// A control character (C0, DEL, C1), bidi control or zero-width
    /// character: what this neutraliser escapes, for formats with escapes of
    /// their own (the `--editor` document writes these as `\u{…}`).
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F, 0x80...0x9F: return true
        default: return isInvisibleFormat(scalar)
        }
    }

    /// Bidi controls and zero-width characters: they change how the text
    /// around them reads without showing themselves.
    private static func isInvisibleFormat(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        case 0x200B...0x200D, 0x2060, 0xFEFF: return true
        default: return false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x1B: return "\\e"
        case 0x00..<0x20, 0x7F: return "\\x" + hex(scalar.value, digits: 2)
        case 0x80...0x9F: return "\\u{" + String(scalar.value, radix: 16) + "}"
        default: return "<U+" + hex(scalar.value, digits: 4) + ">"
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: digits == 4)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
