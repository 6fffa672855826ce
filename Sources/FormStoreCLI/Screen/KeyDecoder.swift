/// Turns the bytes a terminal sends in raw mode into keys: UTF-8 text,
/// control keys, and the escape sequences of xterm, tmux and the Linux
/// console (CSI and SS3 forms). Pure, so every sequence is unit tested.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.feed([0x1B, 0x5B, 0x5A, 0x61])   // [.backTab, .character("a")]
/// ```
///
/// A lone ESC may be the start of a sequence split across reads: it is held
/// until more bytes come or `flush()` (the caller's short timeout) says it was Esc.
struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// True when bytes are held back (an ESC or a partial UTF-8 character).
    var isHolding: Bool { !pending.isEmpty }

    mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        while !pending.isEmpty {
            guard let (key, used) = Self.decodeOne(pending[...]) else { break }
            pending.removeFirst(used)
            if let key { keys.append(key) }
        }
        return keys
    }

    /// The held bytes, taken as they are: a lone ESC is the Esc key, and a
    /// paste whose end has not come is the text pasted so far.
    mutating func flush() -> [Key] {
        defer { pending = [] }
        if pending.starts(with: Self.pasteStart) { return [Self.paste(pending.dropFirst(Self.pasteStart.count))] }
        if pending.first == 0x1B { return [.escape] + KeyDecoder().feedAll(Array(pending.dropFirst())) }
        return []
    }

    private static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Pasted bytes as text, a line break however the terminal sent it (`\r`, `\r\n`) as `\n`.
    private static func paste(_ bytes: some Collection<UInt8>) -> Key {
        .paste(String(decoding: bytes, as: UTF8.self).replacing("\r\n", with: "\n").replacing("\r", with: "\n"))
    }

    /// A bracketed paste at the front of `bytes` (which start with `pasteStart`):
    /// the text up to its end marker; `nil` while the end has not come.
    private static func bracketedPaste(_ bytes: [UInt8]) -> (Key?, Int)? {
        let body = bytes[pasteStart.count...]
        guard let end = body.indices.first(where: { bytes[$0...].starts(with: pasteEnd) }) else { return nil }
        return (paste(bytes[pasteStart.count..<end]), end + pasteEnd.count)
    }

    private func feedAll(_ bytes: [UInt8]) -> [Key] {
        var decoder = self
        return decoder.feed(bytes)
    }

    /// One key from the front of `bytes`, and how many bytes it took; `nil`
    /// when more bytes are needed. A `nil` key consumes bytes that name none.
    private static func decodeOne(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B: return escapeSequence(bytes)
        case 0x09: return (.tab, 1)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return (nil, 1)
        case 0x20..<0x80: return (.character(Character(Unicode.Scalar(first))), 1)
        default: return utf8Character(bytes)
        }
    }

    private static func utf8Character(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
        guard bytes.count >= length else { return nil }
        let text = String(decoding: bytes.prefix(length), as: UTF8.self)
        guard length > 1, let character = text.first, character != "\u{FFFD}" else { return (nil, 1) }
        return (.character(character), length)
    }

    private static func escapeSequence(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let s = Array(bytes)
        guard s.count >= 2 else { return nil }
        if s.starts(with: pasteStart) { return bracketedPaste(s) }
        switch s[1] {
        case 0x5B:  // CSI: parameters, then a final byte in 0x40...0x7E
            var i = 2
            while i < s.count, !(0x40...0x7E).contains(s[i]) { i += 1 }
            guard i < s.count else { return s.count > 16 ? (nil, s.count) : nil }
            let parameters = String(decoding: s[2..<i], as: UTF8.self)
            return (csiKey(final: s[i], parameters: parameters), i + 1)
        case 0x4F:  // SS3
            guard s.count >= 3 else { return nil }
            let keys: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end]
            return (keys[s[2]], 3)
        case 0x1B:
            return (.escape, 1)
        case 0x61...0x7A, 0x41...0x5A:
            // Alt and a letter (xterm and tmux send ESC, then the letter).
            return (.alt(Character(Unicode.Scalar(s[1]))), 2)
        default:
            // Alt and another key: Esc, then the key.
            return (.escape, 1)
        }
    }

    private static func csiKey(final: UInt8, parameters: String) -> Key? {
        // A modifier (`1;3` Alt, `1;5` Ctrl) on ↑/↓ moves a row instead of the focus.
        let modified = parameters.contains(";") && !parameters.hasSuffix(";1")
        switch final {
        case 0x41: return modified ? .rowUp : .up
        case 0x42: return modified ? .rowDown : .down
        case 0x43: return .right
        case 0x44: return .left
        case 0x48: return .home
        case 0x46: return .end
        case 0x5A: return .backTab
        case 0x7E:
            switch parameters.split(separator: ";").first.map(String.init) {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            default: return nil
            }
        default: return nil
        }
    }
}
