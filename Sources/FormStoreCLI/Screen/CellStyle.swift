/// How a cell is drawn. Colour is one attribute among others and never the
/// only cue: an error also carries its `!` marker, so a monochrome terminal
/// or `NO_COLOR` loses nothing but the red.
struct CellStyle: Hashable, Sendable {
    var bold = false
    var dim = false
    var reverse = false
    var underline = false
    /// Red foreground, drawn only when colour is allowed.
    var alert = false

    static let plain = CellStyle()
    static let title = CellStyle(bold: true)
    static let muted = CellStyle(dim: true)
    static let focus = CellStyle(reverse: true)
    static let error = CellStyle(bold: true, alert: true)
    static let status = CellStyle(reverse: true)

    /// The SGR sequence that sets exactly this style from any other.
    func sequence(color: Bool) -> String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if underline { codes.append("4") }
        if reverse { codes.append("7") }
        if alert && color { codes.append("31") }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
