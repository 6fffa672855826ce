import FormCore

/// Drawing the form: header, the scrolled body, the message line and the
/// status line with the mode, the unsaved count and the keys.
extension FormScreen {
    /// The smallest screen the form is drawn on; a smaller one says so.
    static let minimumSize = (width: 30, height: 8)

    func render(width: Int, height: Int) -> ScreenBuffer {
        var screen = ScreenBuffer(width: width, height: height)
        isTooSmall = width < Self.minimumSize.width || height < Self.minimumSize.height
        guard !isTooSmall else {
            screen.write("Terminal too small", row: 0, column: 0)
            screen.write("(\(width)x\(height); needs \(Self.minimumSize.width)x\(Self.minimumSize.height))", row: 1, column: 0)
            return screen
        }
        var header = " \(form.title)"
        if let key = session.key { header += " — \(form.name) \(key.typedText)" } else { header += " — new \(form.name)" }
        screen.write(header, row: 0, column: 0, style: .title)
        screen.write(String(repeating: "─", count: width), row: 1, column: 0, style: .muted)
        let body = 2..<(height - 2)
        if case .conflicts(let choice)? = overlay {
            drawConflicts(choice, into: &screen, rows: body)
        } else {
            drawBody(into: &screen, rows: body)
        }
        drawMessage(into: &screen, row: height - 2)
        drawStatus(into: &screen, row: height - 1)
        switch overlay {
        case .confirmDiscard?: drawConfirmDiscard(into: &screen)
        case .confirmDeleteRow(let cell)?: drawConfirmDeleteRow(cell, into: &screen)
        case .draft(let draft)?: drawDraftOffer(draft, into: &screen)
        default: break
        }
        return screen
    }

    // MARK: Body

    private func drawBody(into screen: inout ScreenBuffer, rows: Range<Int>) {
        let layout = FormLayout(session: session, width: screen.width)
        let height = rows.count
        if let span = cell.flatMap(layout.span(of:)) ?? focus.flatMap(layout.span(of:)) {
            if span.lowerBound < scroll { scroll = span.lowerBound }
            if span.upperBound >= scroll + height { scroll = span.upperBound - height + 1 }
        }
        scroll = max(0, min(scroll, layout.lines.count - height))
        for (offset, line) in layout.lines.dropFirst(scroll).prefix(height).enumerated() {
            draw(line, layout: layout, into: &screen, row: rows.lowerBound + offset)
        }
        if scroll > 0 { screen.write("↑", row: rows.lowerBound, column: screen.width - 1, style: .muted) }
        if scroll + height < layout.lines.count { screen.write("↓", row: rows.upperBound - 1, column: screen.width - 1, style: .muted) }
        if case .picker(let picker)? = overlay {
            // Under its field, or under its row's line, from the table's first column (a cell's).
            let line = if let cell = picker.cell, let row = cell.row {
                layout.lines.firstIndex(of: .tableRow(cell.group, row))
            } else {
                layout.lines.firstIndex(of: .field(picker.field))
            }
            if let line {
                drawPicker(picker, into: &screen, at: rows.lowerBound + line - scroll,
                           column: picker.cell == nil ? layout.valueColumn : TableLayout.origin, rows: rows)
            }
        }
    }

    private func draw(_ line: FormLayout.Line, layout: FormLayout, into screen: inout ScreenBuffer, row: Int) {
        switch line {
        case .blank:
            break
        case .section(let title):
            screen.write(title, row: row, column: 1, style: .title)
        case .note(let text):
            screen.write(text, row: row, column: 2, style: .muted)
        case .errors(let key):
            drawErrors(key, into: &screen, row: row, column: layout.valueColumn, width: screen.width - layout.valueColumn)
        case .tableHeader, .tableRow, .rowErrors, .tableEnd:
            drawTable(line, layout: layout, into: &screen, row: row)
        case .field(let key):
            guard let field = form.field(key) else { return }
            let focused = key == focus && overlay == nil
            let editable = session.whyNotEditable(key) == nil
            if key == focus { screen.write("›", row: row, column: 0, style: .title) }
            // Changed by someone else while edited here: resolved on the conflict screen at Ctrl-S.
            if isChangedUnderneath(key) { screen.write("!", row: row, column: 1, style: .error) }
            // Cut with an ellipsis, so that a cut label does not pass for another field's.
            screen.write(DisplayWidth.fit(FormLayout.label(field), width: layout.valueColumn - 4), row: row, column: 2,
                         style: editable ? (focused ? .title : .plain) : .muted, limit: layout.valueColumn - 4)
            let wide = FormLayout.valueIsWide(field, session: session, boxWidth: layout.boxWidth)
            let width = wide ? screen.width - layout.valueColumn - 1 : layout.boxWidth
            drawValue(field, focused: focused, editable: editable, into: &screen, row: row,
                      column: layout.valueColumn, width: width)
            if let column = layout.errorColumn, !layout.errorsBelow.contains(key) {
                drawErrors(key, into: &screen, row: row, column: column, width: screen.width - column)
            }
        }
    }

    private func drawErrors(_ key: String, into screen: inout ScreenBuffer, row: Int, column: Int, width: Int) {
        let problems = session.errors(key)
        if problems.isEmpty, isChangedUnderneath(key) {
            screen.write(DisplayWidth.fit("changed by someone else: Ctrl-S to choose", width: width), row: row,
                         column: column, style: .error)
        }
        guard !problems.isEmpty else { return }
        screen.write(DisplayWidth.fit(FormLayout.errorText(problems), width: width), row: row, column: column, style: .error)
    }

    private func drawValue(_ field: Field, focused: Bool, editable: Bool, into screen: inout ScreenBuffer,
                           row: Int, column: Int, width: Int) {
        var style: CellStyle = editable ? CellStyle(underline: true) : .muted
        if focused { style = .focus }
        let fills = FormScreen.isTyped(field)
        if fills { screen.fill(row: row, column: column, count: width, style: style) }
        if focused, let editor {
            let shown = field.isSecure ? LineEditor(String(repeating: "•", count: editor.characters.count)) : editor
            var cursorLine = shown
            // The window follows the cursor; a secret's mask has the same positions.
            while cursorLine.cursor > editor.cursor { cursorLine.moveLeft() }
            let window = cursorLine.window(width: width)
            screen.write(window.text, row: row, column: column, style: style, limit: width)
            screen.cursor = (row, column + window.cursor)
            return
        }
        let text = valueText(field, focused: focused)
        if text.isEmpty, let placeholder = field.placeholder, fills {
            screen.write(DisplayWidth.fit(placeholder, width: width), row: row, column: column,
                         style: CellStyle(dim: true, reverse: focused, underline: !focused && editable), limit: width)
            return
        }
        screen.write(DisplayWidth.fit(text, width: width), row: row, column: column, style: fills ? style : (focused ? .focus : editable ? .plain : .muted), limit: width)
    }

    /// A field's value as the form shows it when not typed in.
    func valueText(_ field: Field, focused: Bool) -> String {
        let key = field.key
        switch field.kind {
        case .bool:
            return FormScreen.checkbox(session.value(key))
        case .multichoice:
            return FormScreen.toggles(field, session: session, cursor: focused ? choiceCursor : nil)
        default:
            if !field.choices.isEmpty {
                let value = session.value(key)
                let label = field.choices.first { $0.value == value }?.label
                    ?? (value.isEmpty ? "" : FieldDisplay.text(value, of: field))
                return label + " ▾"
            }
            // Empty text as it is typed, `""`, apart from NULL (nothing), as `show` and the prompts show it.
            if session.inputs[key] == nil && session.value(key).isEmpty {
                return field.isSecure ? "" : session.shownText(key)
            }
            let text = FieldDisplay.current(key, in: session, forScreen: true)
            // A foreign key's row, as `show` names it; none for text that did not parse, or a secret.
            guard session.inputs[key] == nil, !field.isSecure,
                  let suffix = labels?.suffix(key, session.value(key)) else { return text }
            return text + " " + suffix
        }
    }

    /// A bool's box: `[x]` yes, `[ ]` no, `[-]` no value (NULL, which is
    /// neither: shown as no, a toggle there and back wrote 0 over it).
    static func checkbox(_ value: FieldValue) -> String {
        switch value.boolValue {
        case true?: "[x]"
        case false?: "[ ]"
        case nil: "[-]"
        }
    }

    /// `[x] Red  [ ] Green`, the highlighted toggle between `‹ ›`.
    static func toggles(_ field: Field, session: FormSession, cursor: Int?) -> String {
        let selected = session.value(field.key).listValue ?? []
        return field.choices.filter { !$0.isDisabled }.enumerated().map { index, choice in
            let box = selected.contains(choice.value) ? "[x] " : "[ ] "
            return index == cursor ? "‹\(box)\(choice.label)›" : " \(box)\(choice.label) "
        }.joined(separator: " ")
    }

    /// The list under the field, or over it when the field is near the bottom.
    private func drawPicker(_ picker: Picker, into screen: inout ScreenBuffer, at fieldRow: Int, column: Int, rows: Range<Int>) {
        let choices = filteredChoices(picker)
        let labels = choices.map(\.label)
        // As wide as its widest label, within the screen: moved left rather than cut at the right edge.
        let inner = max(1, min(screen.width - 2, max(16, min(screen.width - column - 3, (labels.map(DisplayWidth.of).max() ?? 0) + 2))))
        let column = max(0, min(column, screen.width - inner - 2))
        let wanted = max(1, min(choices.count, 8))
        // Below the field, else above it; the message and status lines stay.
        let below = rows.upperBound - fieldRow - 4  // two borders and the filter line
        let above = fieldRow - rows.lowerBound - 3
        let goesAbove = below < wanted && above > below
        // Where neither has room (a terminal of few lines) it covers the field and the message
        // line, below the header's rule.
        let shown = max(1, min(wanted, goesAbove ? above : below, rows.upperBound - 3))
        let first = max(0, min(picker.highlighted - shown + 1, choices.count - shown))
        var r = max(1, min(goesAbove ? fieldRow - shown - 3 : fieldRow + 1, rows.upperBound - shown - 2))
        // Choices beyond the ones shown are counted on the borders.
        func border(_ left: String, _ right: String, more: Int, arrow: String) -> String {
            let note = more > 0 ? " \(arrow) \(more) more " : ""
            let line = DisplayWidth.of(note) <= inner - 2 ? "─" + note : ""
            return left + line + String(repeating: "─", count: max(0, inner - DisplayWidth.of(line))) + right
        }
        screen.write(border("┌", "┐", more: first, arrow: "↑"), row: r, column: column)
        r += 1
        screen.fill(row: r, column: column, count: inner + 2, style: .plain)
        screen.write("│", row: r, column: column)
        let end = screen.write("Filter: " + picker.filter, row: r, column: column + 1, limit: inner)
        screen.write("│", row: r, column: column + inner + 1)
        screen.cursor = (r, end)
        for (offset, label) in labels.dropFirst(first).prefix(shown).enumerated() {
            r += 1
            let highlighted = first + offset == picker.highlighted
            screen.write("│", row: r, column: column)
            screen.fill(row: r, column: column + 1, count: inner, style: highlighted ? .focus : .plain)
            screen.write(DisplayWidth.fit(" " + label, width: inner), row: r, column: column + 1,
                         style: highlighted ? .focus : .plain, limit: inner)
            screen.write("│", row: r, column: column + inner + 1)
        }
        if choices.isEmpty {
            r += 1
            screen.fill(row: r, column: column, count: inner + 2, style: .plain)
            screen.write("│ (no match)", row: r, column: column)
            screen.write("│", row: r, column: column + inner + 1)
        }
        // Referenced rows past those read: the last border says typing finds them.
        let unread = referencedChoices.map { $0.more && $0.choices == choices } ?? false
        if unread && first + shown >= choices.count {
            let note = DisplayWidth.fit(" type for more ", width: max(0, inner - 1))
            screen.write("└─" + note + String(repeating: "─", count: max(0, inner - 1 - DisplayWidth.of(note))) + "┘",
                         row: r + 1, column: column)
        } else {
            screen.write(border("└", "┘", more: max(0, choices.count - first - shown), arrow: "↓"), row: r + 1, column: column)
        }
    }

    // MARK: Overlays

    func drawBox(_ given: [(String, CellStyle)], into screen: inout ScreenBuffer) {
        let inner = min(screen.width - 4, (given.map { DisplayWidth.of($0.0) }.max() ?? 0) + 2)
        // On a narrow terminal a line is wrapped at its spaces, not cut: a dialog's last words are its keys.
        let lines = given.flatMap { text, style in Self.wrapped(text, width: inner - 2).map { ($0, style) } }
        let top = max(2, (screen.height - lines.count - 2) / 2)
        let left = max(0, (screen.width - inner - 2) / 2)
        screen.write("┌" + String(repeating: "─", count: inner) + "┐", row: top, column: left)
        for (offset, (text, style)) in lines.enumerated() {
            let row = top + 1 + offset
            screen.fill(row: row, column: left, count: inner + 2, style: .plain)
            screen.write("│", row: row, column: left)
            screen.write(DisplayWidth.fit(text, width: inner - 2), row: row, column: left + 2, style: style, limit: inner - 2)
            screen.write("│", row: row, column: left + inner + 1)
        }
        screen.write("└" + String(repeating: "─", count: inner) + "┘", row: top + lines.count + 1, column: left)
        screen.cursor = nil
    }

    /// `text` in lines of at most `width` columns, broken at spaces (a word
    /// wider than that is cut when drawn); as it is when it fits.
    static func wrapped(_ text: String, width: Int) -> [String] {
        guard width > 0, DisplayWidth.of(text) > width else { return [text] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let longer = line.isEmpty ? String(word) : line + " " + word
            if line.isEmpty || DisplayWidth.of(longer) <= width {
                line = longer
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private func drawConfirmDiscard(into screen: inout ScreenBuffer) {
        let count = unsavedCount
        let fields = "\(count) field\(count == 1 ? "" : "s")"
        // The form's own warning, when it has one, with the count beneath it.
        let question: [(String, CellStyle)] = switch form.unsavedChangesWarning {
        case let text? where text != Form.defaultUnsavedChangesWarning:
            [(text, .title), ("(\(fields) unsaved)", .plain)]
        default:
            [("Discard your unsaved changes (\(fields))?", .title)]
        }
        drawBox(question + [("", .plain),
                 ("y  discard and leave     n  keep editing", .plain)], into: &screen)
    }

    private func drawDraftOffer(_ draft: Draft, into screen: inout ScreenBuffer) {
        let changed = draft.changedFields.map { FieldDisplay.label($0, in: form) } + draft.changedGroups.map(groupTitle)
        var lines: [(String, CellStyle)] = [
            ("An unsaved draft of this record was found,", .title),
            ("from \(ValueText.shownDate(draft.updatedAt, kind: nil).prefix(16)): \(changed.joined(separator: ", ")).", .plain),
        ]
        let older = session.offeredDrafts.count - 1
        if older > 0 { lines.append(("(\(older) older draft\(older == 1 ? "" : "s") too: formstore drafts \(form.name))", .muted)) }
        lines += [("", .plain), ("r  restore it     d  discard it     k  keep it for later", .plain)]
        drawBox(lines, into: &screen)
    }

    private func drawConflicts(_ choice: ConflictChoice, into screen: inout ScreenBuffer, rows: Range<Int>) {
        var row = rows.lowerBound
        let headline = choice.draft == nil
            ? "Not saved: someone else changed these fields since you began."
            : "Changed both in your draft and in the database since the draft was made."
        screen.write(DisplayWidth.fit(headline, width: screen.width - 1), row: row, column: 1, style: .error)
        row += 2
        let fields = choice.conflicts.map { form.field($0.field) ?? Field(key: $0.field) }
        let cells = zip(choice.conflicts, fields).map { conflict, field in
            [field.label, FieldDisplay.text(conflict.base, of: field), FieldDisplay.text(conflict.mine, of: field),
             FieldDisplay.text(conflict.theirs, of: field)]
        }
        // Sized to the screen: the choice always shows (its short form on a narrow one); the values
        // share what is left, Was dropped first; the chosen field's values follow in full below.
        let narrow = screen.width < 72
        let keepTexts = narrow ? ["› yours", "› theirs"] : ["(•) yours  ( ) theirs", "( ) yours  (•) theirs"]
        let titles = ["Field", "Was", "Yours", "Theirs"]
        // Each column as wide as its widest cell, the label at most 24 (16 on a narrow screen).
        let natural = titles.indices.map { i in ([titles[i]] + cells.map { $0[i] }).map(DisplayWidth.of).max() ?? 0 }
        let labelWidth = min(narrow ? 16 : 24, natural[0])
        let keepWidth = keepTexts.map(DisplayWidth.of).max()!
        let room = screen.width - 2 - labelWidth - keepWidth
        let showsWas = (room - 4 * 3) / 3 >= 8
        let columns = showsWas ? [0, 1, 2, 3] : [0, 2, 3]
        let fitted = max(3, (room - columns.count * 3) / (columns.count - 1))
        let widths = [labelWidth] + columns.dropFirst().map { min(fitted, natural[$0]) } + [keepWidth]
        func put(_ values: [String], style: CellStyle, at row: Int) {
            var column = 2
            for (i, value) in values.enumerated() {
                screen.write(DisplayWidth.fit(value, width: widths[i]), row: row, column: column, style: style, limit: widths[i])
                column += widths[i] + 3
            }
        }
        put(columns.map { titles[$0] } + ["Keep"], style: .title, at: row)
        for (index, line) in cells.enumerated() where row + 1 < rows.upperBound {
            row += 1
            let keep = keepTexts[choice.keepMine[index] ? 0 : 1]
            if index == choice.highlighted { screen.write("›", row: row, column: 0, style: .title) }
            put(columns.map { line[$0] } + [keep], style: index == choice.highlighted ? .title : .plain, at: row)
        }
        // The chosen field's values in full (what a cell cut off may be where they differ).
        if choice.highlighted < cells.count, row + 3 < rows.upperBound {
            let line = cells[choice.highlighted]
            row += 1
            for (name, value) in [("Yours:  ", line[2]), ("Theirs: ", line[3])] {
                // Up to three lines each, the last cut with … where the value goes on.
                let width = max(1, screen.width - 2 - DisplayWidth.of(name))
                let lines = Self.valueLines(value, width: width)
                for (index, text) in lines.prefix(3).enumerated() where row + 2 < rows.upperBound {
                    row += 1
                    let shown = index == 2 && lines.count > 3 ? DisplayWidth.fit(text + "…", width: width) : text
                    screen.write((index == 0 ? name : String(repeating: " ", count: name.count)) + shown, row: row, column: 2)
                }
            }
        }
        if row + 2 < rows.upperBound {
            screen.write(narrow ? "←/y yours  →/t theirs  ↑↓  Enter apply" : "←/y keep yours   →/t take theirs   ↑↓ field   Enter apply",
                         row: row + 2, column: 2, style: .muted)
        }
        screen.cursor = nil
    }

    /// A value in lines of at most `width` columns, broken between characters
    /// (every space kept, unlike prose's `wrapped`).
    static func valueLines(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = "", used = 0
        for character in text {
            let w = DisplayWidth.of(character)
            if used + w > width, !line.isEmpty {
                lines.append(line)
                line = ""
                used = 0
            }
            line.append(character)
            used += w
        }
        return lines + [line]
    }

    // MARK: Message and status

    /// Fields and groups with unsaved changes.
    var unsavedCount: Int { Set(session.dirtyFields).union(session.inputs.keys).union(session.dirtyGroups).count }

    private func drawMessage(into screen: inout ScreenBuffer, row: Int) {
        if let message {
            screen.write(DisplayWidth.fit(" " + message.text, width: screen.width), row: row, column: 0,
                         style: message.isProblem ? .error : .plain)
        } else if overlay == nil, let cell, let text = cellMessage(cell) {
            screen.write(DisplayWidth.fit(" " + text.text, width: screen.width), row: row, column: 0,
                         style: text.isProblem ? .error : .muted)
        } else if overlay == nil, let field = focusedField, !session.errors(field.key).isEmpty {
            // The focused field's errors in full, however little room they had beside it.
            screen.write(DisplayWidth.fit(" " + FormLayout.errorText(session.errors(field.key)), width: screen.width),
                         row: row, column: 0, style: .error)
        } else if overlay == nil, let field = focusedField, let hint = hint(for: field) {
            screen.write(DisplayWidth.fit(" " + hint, width: screen.width), row: row, column: 0, style: .muted)
        }
    }

    private func hint(for field: Field) -> String? {
        if session.whyNotEditable(field.key) != nil {
            if form.mode == .edit && !session.isEditing && !field.isReadOnly { return "\(field.label): Ctrl-E to edit" }
            return "\(field.label) is read-only"
        }
        var parts: [String] = []
        if let hint = field.hint { parts.append(hint) }
        switch field.kind {
        case .bool: parts.append("Space toggles" + (field.isNotNull ? "" : ", Del clears"))
        case .multichoice: parts.append("←→ choose, Space toggles")
        case .date, .time, .datetime:
            if let format = field.format { parts.append("typed as \(format)") }
        default:
            if !field.choices.isEmpty { parts.append("Enter or type to pick") }
            if refersToRows(field) { parts.append("Enter picks a row") }
        }
        if field.isSecure { parts.append("typed afresh, never shown") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    private func drawStatus(into screen: inout ScreenBuffer, row: Int) {
        screen.fill(row: row, column: 0, count: screen.width, style: .status)
        var parts: [String]
        switch form.mode {
        case .edit where !session.isEditing: parts = ["EDIT: viewing"]
        case .edit: parts = ["EDITING"]
        case .frozen: parts = ["FROZEN"]
        case .save: parts = ["SAVE"]
        case .free: parts = ["FREE: saved as you leave a field"]
        }
        if form.mode != .free { parts.append(unsavedCount == 0 ? "no changes" : "\(unsavedCount) unsaved") }
        // Said while there is something to lose: a killed process would lose it.
        showsNoDraft = keepsNoDraft
        if showsNoDraft { parts.append("NO DRAFT KEPT: ^S saves") }
        // On a narrow screen the keys to press matter most: the line drops
        // what a person can do without (the move keys, "no changes") before
        // it is cut.
        var line = " " + (parts + [keys()]).joined(separator: " │ ")
        if DisplayWidth.of(line) > screen.width {
            if unsavedCount == 0 && form.mode != .free { parts.removeLast() }
            line = " " + (parts + [keys(compact: true)]).joined(separator: " │ ")
        }
        screen.write(DisplayWidth.fit(line, width: screen.width), row: row, column: 0, style: .status)
    }

    /// The keys that do something now; `compact`: without the move keys and
    /// with one space between keys, for a narrow screen.
    func keys(compact: Bool = false) -> String {
        let full = fullKeys
        guard compact else { return full }
        return full.replacing("Tab/S-Tab move  ", with: "").replacing(", keep draft", with: "")
            .replacing("  ", with: " ")
    }

    private var fullKeys: String {
        switch overlay {
        case .picker?: return "type to filter  ↑↓ move  Enter pick  Esc close"
        case .confirmDiscard?: return "y discard  n keep editing"
        case .confirmDeleteRow?: return "y delete  n keep the row"
        case .draft?: return "r restore  d discard  k keep for later"
        case .conflicts?: return "←→ yours/theirs  Enter apply"
        case nil: break
        }
        let move = "Tab/S-Tab move"
        // Undo and redo are named when there is a step to take.
        let steps = (session.canUndo ? "M-z undo  " : "") + (session.canRedo ? "^Y redo  " : "")
        switch form.mode {
        case .edit where !session.isEditing: return "^E edit  \(move)  Esc quit"
        case .free: return "\(move)  \(steps)Esc quit  ^C quit"
        case .frozen where unsavedCount == 0: return "\(move)  Esc quit"
        default: return "\(move)  ^S save  \(steps)Esc cancel  ^C quit" + (keepsNoDraft ? "" : ", keep draft")
        }
    }

    /// The autosave found nowhere to keep the draft of unsaved changes.
    private var keepsNoDraft: Bool {
        unsavedCount > 0 && session.draftFallback?.isNowhere == true
    }

    /// Changes are unsaved and the screen last drawn does not say that they
    /// are kept nowhere: the next autosave may find so, which it must say.
    /// (Asked of what was drawn, not of the autosaver now: one that failed
    /// between the drawing and this question would never be said.)
    var awaitsDraftOutcome: Bool {
        unsavedCount > 0 && !showsNoDraft
    }
}
