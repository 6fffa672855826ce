import FormCore

/// The sessions that made a visitor's latest saves, kept so the page can
/// offer Undo and then Redo: the session's own steps (`FormSession.undo()`),
/// so undoing is a new save of the previous values (and rows), checked for conflicts
/// and recorded in the history like any other. Used behind `WebApp.locked`;
/// a bounded number is kept (the oldest go first), and a server restart
/// forgets them.
final class UndoableSaves {
    static let limit = 256

    private var sessions: [String: FormSession] = [:]
    private var order: [String] = []

    static func slot(visitor: String, form: String, key: String) -> String { "\(visitor)\u{0}\(form)\u{0}\(key)" }

    func keep(_ session: FormSession, visitor: String, key: String) {
        let slot = Self.slot(visitor: visitor, form: session.form.name, key: key)
        if sessions.updateValue(session, forKey: slot) == nil { order.append(slot) }
        if order.count > Self.limit { sessions[order.removeFirst()] = nil }
    }

    func session(visitor: String, form: String, key: String) -> FormSession? {
        sessions[Self.slot(visitor: visitor, form: form, key: key)]
    }
}
