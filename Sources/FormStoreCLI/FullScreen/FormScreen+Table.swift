import FormCore

/// Drawing a group's table: the header of its row fields, one line a row
/// with a marker of how the row changed (`+` added, `*` changed, `↕` moved),
/// the row's errors beside it (or below when there is no room), and the
/// add-a-row line with the errors of the group's rules.
extension FormScreen {
    func drawTable(_ line: FormLayout.Line, layout: FormLayout, into screen: inout ScreenBuffer, row: Int) {
        let key: String
        switch line {
        case .tableHeader(let group), .tableRow(let group, _), .rowErrors(let group, _), .tableEnd(let group): key = group
        default: return
        }
        guard let group = form.group(key) else { return }
        let focused = cell?.group == key ? cell?.field : nil
        let table = TableLayout(group: group, session: session, width: screen.width,
                                first: firstColumn[key] ?? 0, focused: focused, labels: rowLabels[key])
        if cell?.group == key { firstColumn[key] = table.first }
        switch line {
        case .tableHeader:
            for index in table.shown {
                screen.write(DisplayWidth.fit(table.columns[index].label, width: table.widths[index]), row: row,
                             column: table.start(of: index), style: .title, limit: table.widths[index])
            }
            if table.isCutLeft { screen.write("…", row: row, column: TableLayout.origin - 2, style: .muted) }
            if table.isCutRight { screen.write("…", row: row, column: table.end + 1, style: .muted) }
        case .tableRow(_, let id):
            drawRow(group, id, table: table, layout: layout, into: &screen, row: row)
        case .rowErrors(_, let id):
            drawRowErrors(group, id, into: &screen, row: row, column: TableLayout.origin)
        case .tableEnd:
            let here = cell == Cell(group: key) && overlay == nil
            if here { screen.write("›", row: row, column: 0, style: .title) }
            let text = session.rows(key).isEmpty ? "+ add a row (Ctrl-N)  — no rows yet" : "+ add a row (Ctrl-N)"
            let end = screen.write(text, row: row, column: 2, style: here ? .focus : .muted)
            let problems = ruleErrors(group)
            if !problems.isEmpty {
                screen.write(DisplayWidth.fit(FormLayout.errorText(problems), width: screen.width - end - 3), row: row,
                             column: end + 2, style: .error)
            }
        default:
            break
        }
    }

    private func drawRow(_ group: RowGroup, _ id: String, table: TableLayout, layout: FormLayout,
                         into screen: inout ScreenBuffer, row: Int) {
        guard let stored = session.row(group.key, id) else { return }
        let editable = session.whyGroupNotEditable(group.key) == nil
        if cell?.group == group.key && cell?.row == id { screen.write("›", row: row, column: 0, style: .title) }
        screen.write(Self.marker(session.rowChange(group.key, id)), row: row, column: 2, style: .title)
        let problems = Set(session.rowErrors(group.key, id).map(\.field))
        let columns = Set(Self.editableColumns(group, row: stored).map(\.key))
        for index in table.shown {
            let field = table.columns[index]
            let column = table.start(of: index), width = table.widths[index]
            let here = cell == Cell(group: group.key, row: id, field: field.key) && overlay == nil
            var style: CellStyle = editable && columns.contains(field.key) ? .plain : .muted
            if problems.contains(field.key) { style = .error }
            if here { style = .focus }
            if here { screen.fill(row: row, column: column, count: width, style: style) }
            if here, let editor {
                let shown = field.isSecure ? LineEditor(String(repeating: "•", count: editor.characters.count)) : editor
                let window = shown.window(width: width)
                screen.write(window.text, row: row, column: column, style: style, limit: width)
                screen.cursor = (row, column + window.cursor)
                continue
            }
            screen.write(DisplayWidth.fit(Self.cellText(group, stored, field, in: session, labels: rowLabels[group.key]), width: width),
                         row: row, column: column,
                         style: style, limit: width)
        }
        if let column = layout.rowErrorColumn[group.key] {
            drawRowErrors(group, id, into: &screen, row: row, column: column)
        }
    }

    private func drawRowErrors(_ group: RowGroup, _ id: String, into screen: inout ScreenBuffer, row: Int, column: Int) {
        let problems = Self.rowProblems(session, group.key, id)
        guard !problems.isEmpty, column < screen.width else { return }
        screen.write(DisplayWidth.fit(FormLayout.errorText(problems), width: screen.width - column), row: row,
                     column: column, style: .error)
    }

    /// A cell as shown when not typed in (and as its column is measured, `TableLayout`).
    /// With `labels` (the group's), a foreign key's row follows its value, as `show` names it: `1 (Blue)`.
    static func cellText(_ group: RowGroup, _ row: GroupRow, _ field: Field, in session: FormSession,
                         labels: ReferenceLabels? = nil) -> String {
        if field.kind == .bool { return FormScreen.checkbox(row[field.key] ?? .null) }
        if let labels, !field.isSecure, let suffix = labels.suffix(field.key, row[field.key]) {
            return TerminalText.neutralisedForScreen(session.shownRowText(group.key, row.id, field.key) + " " + suffix)
        }
        // A row's password, as a field's: masked, and typed afresh (`cellChanged`).
        if field.isSecure { return session.rowText(group.key, row.id, field.key).isEmpty ? "" : ValueText.mask }
        if !field.choices.isEmpty, let choice = field.choices.first(where: { $0.value == row[field.key] }) {
            return choice.label
        }
        // Line breaks and tabs drawn as their signs (⏎ ⇥); bidi and zero-width characters escaped;
        // empty text as `""`, apart from NULL, as in a field.
        return ScreenBuffer.drawn(TerminalText.neutralisedForScreen(session.shownRowText(group.key, row.id, field.key)))
    }

    /// `+` added, `*` changed, `↕` moved (`*↕` both).
    static func marker(_ change: RowChange) -> String {
        switch change {
        case .unchanged: return ""
        case .added: return "+"
        case .changed(let fields, let moved): return (fields.isEmpty ? "" : "*") + (moved ? "↕" : "")
        }
    }

    /// A row's errors: its fields', and a value the row repeats that must be
    /// unique within the group (the rule names the row by its place).
    static func rowProblems(_ session: FormSession, _ group: String, _ id: String) -> [FieldError] {
        guard let index = session.rows(group).firstIndex(where: { $0.id == id }) else { return [] }
        let place = GroupPath.position(group, index + 1) + "."
        return session.rowErrors(group, id)
            + session.groupErrors.filter { $0.code == "unique" && ($0.field?.hasPrefix(place) ?? false) }
    }

    /// The errors of the group's rules beyond a row: the number of rows, a
    /// parent field that must equal a sum of a column.
    func ruleErrors(_ group: RowGroup) -> [FieldError] {
        let sums = Set(group.sums.map(\.field))
        return session.groupErrors.filter { error in
            switch error.code {
            case "minRows", "maxRows": return error.field == group.key
            case "sum": return error.field.map(sums.contains) ?? false
            default: return false
            }
        }
    }

    /// The message line on a cell: its errors in full, else what the keys do.
    func cellMessage(_ cell: Cell) -> Message? {
        guard let group = form.group(cell.group) else { return nil }
        if let why = session.whyGroupNotEditable(cell.group) {
            if form.mode == .edit && !session.isEditing { return Message(text: "\(groupTitle(cell.group)): Ctrl-E to edit", isProblem: false) }
            return Message(text: "\(groupTitle(cell.group)) \(why)", isProblem: false)
        }
        if let id = cell.row, let name = cell.field {
            let problems = session.rowErrors(cell.group, id).filter { $0.field == name }
            if !problems.isEmpty { return Message(text: FormLayout.errorText(problems), isProblem: true) }
        }
        var keys = ["^N add row"]
        if cell.row != nil { keys.append("^X delete row") }
        if cell.row != nil && group.keepsOrder { keys.append("Alt-↑↓ move row") }
        if let field = focusedColumn {
            if field.kind == .bool { keys.insert("Space toggles", at: 0) }
            else if !field.choices.isEmpty { keys.insert("Space next choice", at: 0) }
            else if let hint = field.hint { keys.insert(hint, at: 0) }
        }
        return Message(text: keys.joined(separator: " · "), isProblem: false)
    }

    func drawConfirmDeleteRow(_ cell: Cell, into screen: inout ScreenBuffer) {
        let position = cell.row.flatMap { id in session.rows(cell.group).firstIndex { $0.id == id } }.map { $0 + 1 } ?? 0
        drawBox([("Delete row \(position) of \(groupTitle(cell.group))?", .title),
                 ("", .plain),
                 ("y  delete it     n  keep it", .plain)], into: &screen)
    }
}
