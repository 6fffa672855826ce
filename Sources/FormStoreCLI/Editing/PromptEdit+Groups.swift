import FormBasics
import FormCore

/// The child rows of `edit --plain --children`: after the parent's fields, a
/// small menu per group (list, add, edit N, remove N, done); each cell is
/// asked like a field and parsed by the session.
extension PromptEdit {
    static let rowMenu = "l list, a add, e N edit row N, r N remove row N, d done"

    /// Asks for the rows of every group the form has and may change now.
    func askGroups() throws {
        for group in session.form.groups where session.whyGroupNotEditable(group.key) == nil {
            try askRows(group)
        }
    }

    /// Whether an error names a group's row or rule (`lines[#2].amount`, `lines`).
    func isGroupPath(_ field: String) -> Bool {
        session.form.groups.contains { field == $0.key || field.hasPrefix($0.key + "[") }
    }

    private func askRows(_ group: RowGroup) throws {
        let title = session.form.sections.first { $0.group?.key == group.key }?.title ?? group.key
        listRows(group, title: title)
        while true {
            guard let answer = prompter.line("\(title) (\(Self.rowMenu)) [d]:") else { throw EndOfInput() }
            let words = answer.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            let number = words.count == 2 ? Int(words[1]) : nil
            let rows = session.rows(group.key)
            do {
                switch (words.first?.lowercased() ?? "d", number) {
                case ("d", nil), ("done", nil):
                    return
                case ("l", nil), ("list", nil):
                    listRows(group, title: title)
                case ("a", nil), ("add", nil):
                    let id = try session.addRow(group.key)
                    try askCells(group, id, new: true)
                case ("e", let n?) where rows.indices.contains(n - 1), ("edit", let n?) where rows.indices.contains(n - 1):
                    try askCells(group, rows[n - 1].id, new: rows[n - 1].key == nil)
                case ("r", let n?) where rows.indices.contains(n - 1), ("remove", let n?) where rows.indices.contains(n - 1):
                    try session.removeRow(group.key, rows[n - 1].id)
                    prompter.say("  Removed row \(n).")
                case ("e", _?), ("edit", _?), ("r", _?), ("remove", _?):
                    prompter.say("  ! no row \(words[1]): \(title) has \(rows.count) row(s)")
                default:
                    prompter.say("  ! \(Self.rowMenu)")
                }
            } catch let refused as SessionError {
                prompter.say("  ! \(refused.message)")
            }
        }
    }

    private func listRows(_ group: RowGroup, title: String) {
        let rows = session.rows(group.key)
        prompter.say("\(title): \(rows.count) row(s)")
        let fields = EditorDocument.rowFields(group)
        for (index, row) in rows.enumerated() {
            let cells = fields.map { "\($0.label): \(TerminalText.neutralised(session.rowText(group.key, row.id, $0.key)))" }
            var mark = ""
            switch session.rowChange(group.key, row.id) {
            case .added: mark = " (new)"
            case .changed: mark = " (changed)"
            case .unchanged: break
            }
            prompter.say("  \(index + 1). \(cells.joined(separator: ", "))\(mark)")
            for error in session.rowErrors(group.key, row.id) {
                let label = error.field.flatMap(group.field)?.label ?? error.field ?? group.key
                prompter.say("     ! \(label): \(error.message)")
            }
        }
    }

    /// Asks each cell of a row, like a field: Enter keeps, `\N` is NULL, `""` empty text.
    private func askCells(_ group: RowGroup, _ id: String, new: Bool) throws {
        let keys = new ? group.keyFields.filter { !group.foreignKey.contains($0) }.compactMap(group.field) : []
        for field in keys + EditorDocument.rowFields(group) {
            var error: String? = nil
            // What the cell held when asked: after a refused answer, Enter puts it back, as for a field.
            let held = session.row(group.key, id)?[field.key] ?? .null
            let heldText = session.shownRowText(group.key, id, field.key)
            let shown = session.rowText(group.key, id, field.key)
            let heldInput = shown.hasSameUTF8(as: field.format(held)) ? nil : shown
            var answered = false  // an answer given and refused: the loop asks again
            while true {
                guard let answer = prompter.ask(field, current: answered ? heldText : session.shownRowText(group.key, id, field.key),
                                                error: error)
                else { throw EndOfInput() }
                guard case .value(let text) = answer else {
                    if answered {
                        if let heldInput { try session.setRow(group.key, id, field.key, input: heldInput) }
                        else { try session.setRow(group.key, id, field.key, value: held) }
                    }
                    break
                }
                answered = true
                do {
                    try session.enterRow(group.key, id, field.key, Prompter.fieldInput(text, readingEscapes: !field.isSecure), policy: policy)
                } catch let refused as FieldError {
                    error = refused.message
                    continue
                }
                let problems = session.rowErrors(group.key, id).filter { $0.field == field.key }
                guard !problems.isEmpty else { break }
                error = problems.map(\.message).joined(separator: "; ")
            }
        }
    }
}
