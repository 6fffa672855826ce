/// What the screen shows, cell by cell: the pure half of the renderer. A
/// view draws into a buffer; `ScreenBuffer.changes(from:to:)` turns the
/// difference between two buffers into the bytes that bring the terminal
/// from one to the other, so only changed cells are redrawn (no flicker).
///
/// ```swift
/// var screen = ScreenBuffer(width: 20, height: 2)
/// screen.write("東京 ok", row: 0, column: 0)
/// screen.line(0)   // "東京 ok" (the wide characters take two cells each)
/// ```
struct ScreenBuffer: Equatable, Sendable {
    /// One terminal cell. A wide character sits in its first cell; the cell
    /// after it is a continuation (`text` empty) that the terminal fills itself.
    struct Cell: Equatable, Sendable {
        var text: String
        var style: CellStyle

        static let blank = Cell(text: " ", style: .plain)
        static let continuation = Cell(text: "", style: .plain)
        var isContinuation: Bool { text.isEmpty }
    }

    let width: Int
    let height: Int
    private(set) var cells: [Cell]
    /// Where the terminal's cursor is shown, `nil` to hide it.
    var cursor: (row: Int, column: Int)?

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    static func == (a: ScreenBuffer, b: ScreenBuffer) -> Bool {
        a.width == b.width && a.height == b.height && a.cells == b.cells
            && a.cursor?.row == b.cursor?.row && a.cursor?.column == b.cursor?.column
    }

    subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Writes `text` from `column`, cut at `limit` columns (the right edge by
    /// default); returns the column after the last cell written. Zero-width
    /// characters standing alone are left out (a combining mark travels with
    /// its base character, inside one `Character`), control characters show as a
    /// sign of one column: ⏎ a line break, ⇥ a tab, ␍ a carriage return, ? any other.
    @discardableResult
    mutating func write(_ text: String, row: Int, column: Int, style: CellStyle = .plain, limit: Int? = nil) -> Int {
        guard row >= 0, row < height else { return column }
        let end = min(width, limit.map { column + $0 } ?? width)
        var at = column
        for character in text {
            let shown = Self.sign(of: character) ?? String(character)
            let w = Self.drawnWidth(of: character)
            if w == 0 { continue }
            guard at + w <= end else {
                // A wide character that does not fit leaves a blank, not half a glyph.
                if at < end { put(Cell(text: " ", style: style), row: row, column: at) }
                return end
            }
            if at >= 0 {
                put(Cell(text: shown, style: style), row: row, column: at)
                if w == 2 { put(Cell(text: "", style: style), row: row, column: at + 1) }
            }
            at += w
        }
        return at
    }

    /// Fills `count` cells from `column` with spaces in `style`.
    mutating func fill(row: Int, column: Int, count: Int, style: CellStyle) {
        guard row >= 0, row < height else { return }
        for c in max(0, column)..<max(max(0, column), min(width, column + count)) {
            put(Cell(text: " ", style: style), row: row, column: c)
        }
    }

    private mutating func put(_ cell: Cell, row: Int, column: Int) {
        let index = row * width + column
        if !cell.isContinuation {
            // Overwriting half of a wide character blanks its other half.
            if cells[index].isContinuation, column > 0 {
                cells[index - 1] = Cell(text: " ", style: cells[index - 1].style)
            }
            if column + 1 < width, cells[index + 1].isContinuation {
                cells[index + 1] = Cell(text: " ", style: cells[index + 1].style)
            }
        }
        cells[index] = cell
    }

    /// A row as text (trailing spaces removed): what `tmux capture-pane` shows.
    func line(_ row: Int) -> String {
        var text = ""
        for column in 0..<width { text += self[row, column].text }
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// Every row, one a line.
    var text: String { (0..<height).map(line).joined(separator: "\n") }

    /// The sign a control character is drawn as, one column wide: ⏎ a line
    /// break, ⇥ a tab, ␍ a lone carriage return (docs/terminal.md), ? any
    /// other, ⬚ a bidi control or zero-width character; `nil` for a character
    /// drawn as itself.
    static func sign(of character: Character) -> String? {
        // A bidi control or zero-width character standing alone: drawn, so a person editing the
        // value sees it is there (and the cursor's step over it), where it was left out.
        if !character.isASCII,
           character.unicodeScalars.allSatisfy({ TerminalText.isUnsafe($0) && $0.properties.generalCategory == .format }) {
            return "⬚"
        }
        guard character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return switch character {
        case "\n", "\r\n": "⏎"
        case "\t": "⇥"
        case "\r": "␍"
        default: character.isNewline ? "⏎" : "?"
        }
    }

    /// The columns `write` draws `character` in: its sign's one, else its own width.
    static func drawnWidth(of character: Character) -> Int {
        sign(of: character) == nil ? DisplayWidth.of(character) : 1
    }

    /// `text` as `write` draws it, each control character its sign: what a column is measured by.
    static func drawn(_ text: String) -> String {
        guard text.contains(where: { sign(of: $0) != nil }) else { return text }
        return String(text.flatMap { sign(of: $0) ?? String($0) })
    }
}
