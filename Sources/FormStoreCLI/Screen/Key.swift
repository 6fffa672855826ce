/// A key a person pressed, decoded from the terminal's bytes.
enum Key: Hashable, Sendable {
    case character(Character)
    /// Ctrl and a letter (`.control("s")` for Ctrl-S), other than those named below.
    case control(Character)
    /// Alt (or Esc pressed with it, in the same read) and a letter: `ESC z` is `.alt("z")`.
    case alt(Character)
    case enter, tab, backTab, backspace, delete, escape
    case up, down, left, right, home, end, pageUp, pageDown
    /// Alt or Ctrl with ↑/↓ (`ESC [1;3A`, `ESC [1;5B` …): moves a row of a group.
    case rowUp, rowDown
    /// Text pasted while the terminal brackets pastes (`ESC [200~` … `ESC [201~`),
    /// its line breaks as `\n`: inserted into the field as it is, never taken
    /// as keys (a pasted line break moved on to the next field, and the rest landed there).
    case paste(String)
}
