import FormCore
import FormWeb

/// A row button's post (add, remove, move): everything typed is applied,
/// the step taken, and the form drawn again with nothing saved; the save
/// button then writes the parent and every row in one transaction.
extension WebApp {
    /// Takes the step; the notice that says what happened (and that nothing is saved yet).
    func rowStep(_ action: RowAction, _ session: FormSession, _ result: SubmissionResult) throws -> String {
        let title = session.form.sections.first { $0.group?.key == action.group }?.title ?? action.group
        guard try session.perform(action, rows: result.postedRows) else {
            return "<div class=\"notice conflict\" role=\"alert\">That row is no longer on the page: nothing was changed.</div>\n"
        }
        let what: String
        switch action.kind {
        case .add: what = "A row was added to \(title) (row \(session.rows(action.group).count))."
        case .remove: what = "Row \(action.place) of \(title) was removed."
        case .up: what = "Row \(action.place) of \(title) moved up."
        case .down: what = "Row \(action.place) of \(title) moved down."
        }
        return "<div class=\"notice\" role=\"status\">\(HTML.escape(what)) Nothing is saved until you press \(session.key == nil ? "Create" : "Save").</div>\n"
    }
}
