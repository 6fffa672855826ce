/// One line of text being edited in place, with a cursor that moves by
/// character (a CJK character or an emoji with its modifiers is one step).
///
/// ```swift
/// var line = LineEditor("Ann")
/// line.insert("e")           // "Anne", cursor at the end
/// line.moveHome(); line.deleteForward()   // "nne"
/// ```
struct LineEditor: Hashable, Sendable {
    private(set) var characters: [Character]
    /// The cursor, as a position between characters (0 ... count).
    private(set) var cursor: Int

    init(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String { String(characters) }

    /// The cursor's distance from the start, in terminal columns.
    var cursorColumn: Int { characters[..<cursor].reduce(0) { $0 + DisplayWidth.of($1) } }

    /// Keys come a Unicode scalar at a time: a flag's second half, a skin
    /// tone, a joiner or an accent forms one character with the one before
    /// it (and a letter typed before an accent takes it), so the cursor's
    /// neighbours are formed again as text, and a step never splits them.
    mutating func insert(_ character: Character) {
        let start = max(0, cursor - 1), end = min(characters.count, cursor + 1)
        let typed = String(characters[start..<cursor]) + String(character)
        let formed = Array(typed + String(characters[cursor..<end]))
        characters.replaceSubrange(start..<end, with: formed)
        cursor = min(start + typed.count, start + formed.count)
    }

    mutating func deleteBackward() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Ctrl-U: the line emptied.
    mutating func clear() {
        characters = []
        cursor = 0
    }

    mutating func moveLeft() { cursor = max(0, cursor - 1) }
    mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    mutating func moveHome() { cursor = 0 }
    mutating func moveEnd() { cursor = characters.count }

    /// Applies an editing key (typing, deleting, moving the cursor, Ctrl-U);
    /// false for a key that does not edit a line, which is left unchanged.
    mutating func apply(_ key: Key) -> Bool {
        switch key {
        case .character(let c): insert(c)
        case .paste(let text): for c in text { insert(c) }
        case .backspace: deleteBackward()
        case .delete, .control("d"): deleteForward()
        case .left: moveLeft()
        case .right: moveRight()
        case .home, .control("a"): moveHome()
        case .end: moveEnd()
        case .control("u"): clear()
        default: return false
        }
        return true
    }

    /// The part of the line shown in `width` columns, scrolled so the cursor
    /// stays in view; and the cursor's column inside it.
    func window(width: Int) -> (text: String, cursor: Int) {
        guard width > 1 else { return ("", 0) }
        // As drawn: a control character's sign takes a column (`ScreenBuffer.sign`).
        let widths = characters.map(ScreenBuffer.drawnWidth)
        var start = 0
        // Keep the cursor within the last column of the window: the width before
        // it kept as a running sum (summed again per step, a long value took seconds a key).
        var beforeCursor = widths[..<cursor].reduce(0, +)
        while beforeCursor > width - 1 {
            beforeCursor -= widths[start]
            start += 1
        }
        var shown = ""
        var used = 0
        for index in start..<characters.count {
            guard used + widths[index] <= width else { break }
            shown.append(characters[index])
            used += widths[index]
        }
        return (shown, beforeCursor)
    }
}
