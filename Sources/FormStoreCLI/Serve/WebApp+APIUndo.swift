import FoundationEssentials
import FormCore
import FormStorage

/// `POST /api/forms/NAME/records/KEY/undo` and `…/redo`: the caller's last
/// PATCH of the record taken back (then again) through the session that
/// saved it, as the page's Undo does. The caller is its user (the token's or
/// a `--users` name; on a server without logins, every local client is one).
extension WebApp {
    static func apiVisitor(_ user: String) -> String { "api:" + user }

    func apiUndo(_ name: String, key: String, redo: Bool, user: String) throws -> HTTPResponse {
        try locked {
            let form = try self.form(named: name)
            guard let session = undoable.session(visitor: Self.apiVisitor(user), form: form.name, key: key),
                  redo ? session.canRedo : session.canUndo && session.undoSaves else {
                let body = WebApp.errorJSON("no PATCH of yours to \(redo ? "redo" : "undo") on this record")
                return .json(404, body)
            }
            let outcome: SaveOutcome?
            do {
                outcome = redo ? try session.redo() : try session.undo()
            } catch let error as SessionError {
                return .json(409, WebApp.errorJSON(error.message))
            }
            let result = (outcome ?? .unchanged).maskingSecureValues(of: session.form, with: .text(ValueText.mask))
            var headers: [(String, String)] = []
            if result.isSuccess, let stored = session.key, let now = try workspace.store().load(form, key: stored) {
                headers.append(("ETag", RecordETag.of(now)))
            }
            return .json(status(of: result), try encoder.encode(result), headers: headers)
        }
    }
}
