/// How many terminal columns text takes: East Asian wide and fullwidth
/// characters and emoji take 2, combining marks and other zero-width
/// characters 0, the rest 1 (as `wcwidth` counts, by grapheme cluster).
///
/// ```swift
/// DisplayWidth.of("東京")     // 4
/// DisplayWidth.of("e\u{301}") // 1
/// DisplayWidth.fit("東京都", width: 4)  // "東…"
/// ```
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        // ASCII, the usual case, is one column a byte.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || (scalars.contains("\u{FE0F}") && first.properties.isEmoji) { return 2 }
        if isWide(first.value) { return 2 }
        return scalars.allSatisfy(isZeroWidth) ? 0 : 1
    }

    /// `text` cut to at most `width` columns, ending in `…` when cut.
    static func fit(_ text: String, width: Int) -> String {
        guard of(text) > width else { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return width > 0 ? out + "…" : ""
    }

    /// `text` followed by spaces up to `width` columns.
    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return scalar.value == 0x200B
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt.
    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
