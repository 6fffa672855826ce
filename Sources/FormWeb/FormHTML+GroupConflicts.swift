import FormCore

/// The conflict page's rows: every row of a group the person changed rides
/// along as typed, and each row both sides changed is a choice, as a field is.
extension FormHTML {
    /// The members for the groups in a conflict form: `_groups`, `_rows`
    /// (the rows as stored now: the choice page's base) and each row's
    /// cells, hidden, but a choice where `conflicts` names the row or a cell.
    func groupConflicts(_ conflicts: [WebConflict]) -> String {
        let conflicted = Set(conflicts.compactMap(\.group))
        let groups = editableGroups.filter { session.isGroupDirty($0.key) || conflicted.contains($0.key) }
        guard !groups.isEmpty else { return "" }
        var out = "<input type=\"hidden\" name=\"_groups\" value=\"\(HTML.escape(Self.keysJSON(groups.map(\.key))))\">\n"
        out += "<input type=\"hidden\" name=\"_rows\" value=\"\(HTML.escape(rowsJSON()))\">\n"
        for group in groups {
            let title = session.form.sections.first { $0.group?.key == group.key }?.title ?? group.key
            for (index, row) in session.rows(group.key).enumerated() {
                let place = index + 1
                let prefix = PostedName.row(group.key, place)
                let mine = conflicts.filter { $0.group == group.key && $0.row == row.id }
                if let whole = mine.first(where: { $0.rowField == nil }) {
                    out += rowChoice(whole, row: row, prefix: prefix, label: "\(title), row \(place)", id: Self.cellID(group.key, place, "_row"))
                } else {
                    out += hidden(PostedName.rowKey(group.key, place), row.key?.description ?? "")
                }
                for field in session.editableCells(group, stored: row.key != nil) {
                    let name = PostedName.cell(group.key, place, field.key)
                    // A secure cell is asked for again, never drawn; untouched it rides along as empty (unchanged).
                    if field.isSecure {
                        if mine.contains(where: { $0.rowField == field.key }) {
                            out += secureChoice(name: name, label: "\(title), row \(place): \(field.label)",
                                                id: Self.cellID(group.key, place, field.key))
                        }
                        continue
                    }
                    if let conflict = mine.first(where: { $0.rowField == field.key }) {
                        out += choice(conflict, name: name, label: "\(title), row \(place): \(field.label)",
                                      id: Self.cellID(group.key, place, field.key))
                        continue
                    }
                    switch field.kind {
                    case .bool:
                        if row[field.key].boolValue == true { out += hidden(name, "on") }
                    case .multichoice:
                        for choice in field.choices where WebText.isChosen(choice, in: row[field.key]) { out += hidden(name, choice.valueText) }
                    case .choice:
                        let chosen = field.choices.first { $0.value == row[field.key] }
                        out += hidden(name, chosen?.valueText ?? WebText.of(row: row.id, field, group: group.key, in: session))
                    default:
                        out += hidden(name, WebText.of(row: row.id, field, group: group.key, in: session))
                    }
                }
            }
        }
        return out
    }

    /// A cell both sides changed: yours (checked) or theirs, and what it was.
    func choice(_ conflict: WebConflict, name: String, label: String, id: String) -> String {
        var out = "<fieldset class=\"conflict\" id=\"\(id)\"><legend>\(HTML.escape(label))</legend>\n"
        out += "<p class=\"hint\">When you opened it: <q>\(HTML.escape(conflict.base))</q></p>\n"
        for (suffix, text, title, checked) in [("mine", conflict.mine, "Yours", true), ("theirs", conflict.theirs, "Theirs (saved now)", false)] {
            out += "<label for=\"\(id)-\(suffix)\"><input type=\"radio\" name=\"\(HTML.escape(name))\" id=\"\(id)-\(suffix)\""
            out += " value=\"\(HTML.escape(text))\"\(checked ? " checked" : "")> \(title): <q>\(HTML.escape(text))</q></label>\n"
        }
        return out + "</fieldset>\n"
    }

    /// A row one side removed and the other changed: keep it or not.
    private func rowChoice(_ conflict: WebConflict, row: GroupRow, prefix: String, label: String, id: String) -> String {
        let removedByMe = conflict.mine == "removed"
        let keep = row.key?.description ?? ""
        let options: [(String, String, String)] = removedByMe
            ? [("mine", FormSession.leftOutRow, "Yours: remove it"), ("theirs", keep, "Theirs: keep it as saved now")]
            : [("mine", "", "Yours: keep it, with your changes"), ("theirs", FormSession.leftOutRow, "Theirs: leave it deleted")]
        var out = "<fieldset class=\"conflict\" id=\"\(id)\"><legend>\(HTML.escape(label))</legend>\n"
        out += "<p class=\"hint\">\(removedByMe ? "You removed this row; someone else changed it meanwhile." : "You changed this row; someone else deleted it meanwhile.")</p>\n"
        for (index, option) in options.enumerated() {
            out += "<label for=\"\(id)-\(option.0)\"><input type=\"radio\" name=\"\(HTML.escape(prefix))._key\" id=\"\(id)-\(option.0)\""
            out += " value=\"\(HTML.escape(option.1))\"\(index == 0 ? " checked" : "")> \(HTML.escape(option.2))</label>\n"
        }
        return out + "</fieldset>\n"
    }

    private func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(HTML.escape(name))\" value=\"\(HTML.escape(value))\">\n"
    }
}
