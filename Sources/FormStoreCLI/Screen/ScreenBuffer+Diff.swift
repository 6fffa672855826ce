/// The bytes that turn one screen into another: for each row, the runs of
/// cells that differ are written after a cursor move, with a style sequence
/// only where the style changes. An unchanged screen costs nothing.
extension ScreenBuffer {
    /// - parameter old: what the terminal shows now; `nil` after a clear (the
    ///   whole screen blank), so everything not blank is written.
    /// - parameter color: whether `CellStyle.alert` may turn red.
    static func changes(from old: ScreenBuffer?, to new: ScreenBuffer, color: Bool) -> String {
        let before = old.flatMap { $0.width == new.width && $0.height == new.height ? $0 : nil }
            ?? ScreenBuffer(width: new.width, height: new.height)
        var out = ""
        var style: CellStyle? = nil
        for row in 0..<new.height {
            // A row holding a character of several code points (👍🏽, a flag, a family) may be drawn
            // wider by the terminal than its cells here: changed, it is drawn whole and cleared to its
            // end, or the terminal's shifted cells stayed on the screen (`abc  ok` over `👍🏽 ok`).
            if new.rowDiffers(row, from: before) && (new.rowHasClusters(row) || before.rowHasClusters(row)) {
                out += "\u{1B}[\(row + 1);1H"
                for c in 0..<new.width where !new[row, c].isContinuation {
                    let drawn = new[row, c]
                    if style != drawn.style {
                        out += drawn.style.sequence(color: color)
                        style = drawn.style
                    }
                    out += drawn.text
                }
                if style != .plain {
                    out += CellStyle.plain.sequence(color: color)
                    style = .plain
                }
                out += "\u{1B}[K"
                continue
            }
            var column = 0
            var cursorAt: Int? = nil
            while column < new.width {
                let cell = new[row, column]
                guard cell != before[row, column] || (old == nil && cell != .blank) else {
                    column += 1
                    continue
                }
                // A changed continuation is redrawn from its wide character.
                var start = column
                while start > 0 && new[row, start].isContinuation { start -= 1 }
                if cursorAt != start { out += "\u{1B}[\(row + 1);\(start + 1)H" }
                var c = start
                while c < new.width && (c <= column || new[row, c] != before[row, c] || new[row, c].isContinuation) {
                    let drawn = new[row, c]
                    if drawn.isContinuation { c += 1; continue }
                    if style != drawn.style {
                        out += drawn.style.sequence(color: color)
                        style = drawn.style
                    }
                    out += drawn.text
                    c += 1
                }
                cursorAt = c
                column = c
            }
        }
        if style != nil { out += CellStyle.plain.sequence(color: color) }
        if let cursor = new.cursor {
            out += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h"
        } else {
            out += "\u{1B}[?25l"
        }
        return out
    }
}

extension ScreenBuffer {
    /// Whether a row's cells differ from `other`'s.
    func rowDiffers(_ row: Int, from other: ScreenBuffer) -> Bool {
        (0..<width).contains { self[row, $0] != other[row, $0] }
    }

    /// Whether a row holds a character of more than one code point, whose
    /// width terminals disagree on.
    func rowHasClusters(_ row: Int) -> Bool {
        (0..<width).contains { self[row, $0].text.unicodeScalars.count > 1 }
    }
}
