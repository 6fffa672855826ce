import FormBasics
import FormCore

/// What each key does on the form, and in each overlay.
extension FormScreen {
    /// Applies one key. A storage failure is thrown (the loop leaves the
    /// screen, the draft kept); a refused change is shown on the message line.
    func handle(_ key: Key) throws -> Action {
        switch key {
        case .control("c"): return .interrupt
        case .control("z"): return .suspend
        case .control("l"): return .redraw
        default: break
        }
        // Nothing is typed blind: on a screen too small to draw the form, other keys wait.
        if isTooSmall { return .none }
        switch overlay {
        case .picker(let picker)?: return try handlePicker(key, picker)
        case .confirmDiscard?: return try handleConfirmDiscard(key)
        case .confirmDeleteRow(let cell)?: return try handleConfirmDeleteRow(key, cell)
        case .draft(let draft)?: return try handleDraft(key, draft)
        case .conflicts(let choice)?: return try handleConflicts(key, choice)
        case nil: break
        }
        message = nil
        switch key {
        case .enter where cell != nil && cell?.row == nil:
            _ = try handleCell(key)
        case .tab, .down:
            try moveFocus(by: 1)
        case .enter where !opensPicker:
            try moveFocus(by: 1)
        case .backTab, .up:
            try moveFocus(by: -1)
        case .pageDown:
            try moveFocus(by: 10)
        case .pageUp:
            try moveFocus(by: -10)
        case .escape:
            return try escape()
        case .control("s"):
            return try saveKey()
        case .control("e"):
            try editKey()
        case .alt("z"):
            try step(undoing: true)
        case .control("y"), .alt("y"):
            try step(undoing: false)
        default:
            if try !handleCell(key) { try editFocused(key) }
        }
        keepFocusVisible()
        return .none
    }

    // MARK: Editing the focused field

    private func editFocused(_ key: Key) throws {
        guard let field = focusedField else { return }
        if let why = session.whyNotEditable(field.key) {
            if case .character = key { say(notEditable(field, why), problem: true) }
            if case .paste = key { say(notEditable(field, why), problem: true) }
            if [.backspace, .delete].contains(key) { say(notEditable(field, why), problem: true) }
            return
        }
        if key == .enter, refersToRows(field) {
            // A foreign key: Enter opens the referenced rows, found by what is typed.
            overlay = .picker(Picker(field: field.key))
            return
        }
        if FormScreen.isTyped(field) {
            try editText(key)
            return
        }
        do {
            switch (field.kind, key) {
            case (.bool, .character(" ")):
                // No value (NULL) toggles to yes; no toggles back to no value where the record held none.
                let now = session.value(field.key).boolValue
                let next: FieldValue = if let now {
                    !now && session.pristineValue(field.key) == .null && !field.isNotNull ? .null : .bool(!now)
                } else {
                    .bool(true)
                }
                try report(try session.set(field.key, value: next), field: field.key)
            case (.bool, .backspace), (.bool, .delete), (_, .backspace) where !field.choices.isEmpty,
                 (_, .delete) where !field.choices.isEmpty:
                // A bool or a choice cleared: no value where the column allows it (NULL), as `\N` at a prompt;
                // a NOT NULL column's is refused here, not at the save.
                guard policy.takesNull(field) else {
                    say("\(field.label) cannot be empty: its column is NOT NULL", problem: true)
                    return
                }
                if session.value(field.key) != .null { try report(try session.set(field.key, value: .null), field: field.key) }
            case (.multichoice, .left):
                choiceCursor = max(0, choiceCursor - 1)
            case (.multichoice, .right):
                choiceCursor = min(max(0, offeredChoices(field).count - 1), choiceCursor + 1)
            case (.multichoice, .character(" ")):
                let choices = offeredChoices(field)
                guard choices.indices.contains(choiceCursor) else { return }
                try report(try session.select(field.key, choice: choices[choiceCursor].value), field: field.key)
            case (_, .character(" ")) where !field.choices.isEmpty:
                overlay = .picker(Picker(field: field.key, highlighted: selectedIndex(field)))
            case (_, .character(let c)) where !field.choices.isEmpty:
                overlay = .picker(Picker(field: field.key, filter: String(c)))
            case (_, .enter) where !field.choices.isEmpty:
                overlay = .picker(Picker(field: field.key, highlighted: selectedIndex(field)))
            default:
                break
            }
        } catch let refused as SessionError {
            say(refused.message, problem: true)
        }
    }

    private func editText(_ key: Key) throws {
        guard var line = editor else { return }
        let before = line.text
        guard line.apply(key) else { return }
        editor = line
        if !line.text.hasSameUTF8(as: before) { try textChanged() }
    }

    /// Enter on a choice opens its list; elsewhere it goes to the next field.
    private var opensPicker: Bool {
        if let cell, cell.row != nil, let field = focusedColumn {
            return cellRefersToRows(cell, field) && session.whyGroupNotEditable(cell.group) == nil
        }
        guard let field = focusedField, session.whyNotEditable(field.key) == nil else { return false }
        return (!field.choices.isEmpty || refersToRows(field)) && field.kind != .multichoice
    }

    /// Whether the field is a foreign key whose rows a picker offers.
    func refersToRows(_ field: Field) -> Bool {
        field.choices.isEmpty && labels?.labels(field.key) == true
    }

    /// Whether a row's cell (of `field`) is a foreign key whose rows a picker offers.
    func cellRefersToRows(_ cell: Cell, _ field: Field) -> Bool {
        field.choices.isEmpty && rowLabels[cell.group]?.labels(field.key) == true
    }

    private func notEditable(_ field: Field, _ why: String) -> String {
        if form.mode == .edit && !session.isEditing && !field.isReadOnly {
            return "\(field.label) cannot be changed yet: press Ctrl-E to edit"
        }
        return "\(field.label) \(why)"
    }

    /// The choices a person may pick (disabled ones are left out).
    func offeredChoices(_ field: Field) -> [Choice] {
        field.choices.filter { !$0.isDisabled }
    }

    private func selectedIndex(_ field: Field) -> Int {
        offeredChoices(field).firstIndex { $0.value == session.value(field.key) } ?? 0
    }

    /// The picker's choices that match what was typed (by label, any case).
    func filteredChoices(_ picker: Picker) -> [Choice] {
        if let cell = picker.cell {
            guard let labels = rowLabels[cell.group] else { return [] }
            let key = "\(cell.group).\(picker.field)"
            if let found = referencedChoices, found.field == key, found.filter == picker.filter { return found.choices }
            let choices = labels.choices(form, group: cell.group, column: picker.field, search: picker.filter,
                                         limit: Self.pickedRows + 1)
            referencedChoices = (key, picker.filter, Array(choices.prefix(Self.pickedRows)), choices.count > Self.pickedRows)
            return referencedChoices!.choices
        }
        guard let field = form.field(picker.field) else { return [] }
        if refersToRows(field), let labels {
            // Read once per filter typed, not per drawing.
            if let found = referencedChoices, found.field == field.key, found.filter == picker.filter { return found.choices }
            // One row past those shown tells that there are more (the list stopped at 50 with no word).
            let choices = labels.choices(form, column: field.key, search: picker.filter, limit: Self.pickedRows + 1)
            referencedChoices = (field.key, picker.filter, Array(choices.prefix(Self.pickedRows)), choices.count > Self.pickedRows)
            return referencedChoices!.choices
        }
        let all = offeredChoices(field)
        guard !picker.filter.isEmpty else { return all }
        return all.filter { $0.label.lowercased().contains(picker.filter.lowercased()) }
    }

    private func handlePicker(_ key: Key, _ picker: Picker) throws -> Action {
        var picker = picker
        let choices = filteredChoices(picker)
        switch key {
        case .escape:
            overlay = nil
            // A cell's line editor was left for the picker: back to it.
            if picker.cell != nil { cellChanged() }
            return .none
        case .up:
            picker.highlighted = max(0, picker.highlighted - 1)
        case .down:
            picker.highlighted = min(max(0, choices.count - 1), picker.highlighted + 1)
        case .backspace:
            picker.filter = String(picker.filter.dropLast())
            picker.highlighted = 0
        case .character(let c) where c != " " || !picker.filter.isEmpty:
            picker.filter.append(c)
            picker.highlighted = 0
        case .enter, .character(" "), .tab:
            overlay = nil
            guard choices.indices.contains(picker.highlighted) else { return .none }
            do {
                if let cell = picker.cell, let row = cell.row {
                    try report(try session.setRow(cell.group, row, picker.field, value: choices[picker.highlighted].value),
                               field: cell.group)
                    cellChanged()
                    keepFocusVisible()
                    return .none
                }
                try report(try session.set(picker.field, value: choices[picker.highlighted].value), field: picker.field)
                session.commit(picker.field)
                // A typed field's line shows the value picked.
                if picker.field == focus, let field = form.field(picker.field), FormScreen.isTyped(field) { focusChanged() }
            } catch let refused as SessionError {
                say(refused.message, problem: true)
            }
            keepFocusVisible()
            return .none
        default:
            break
        }
        overlay = .picker(picker)
        return .none
    }
}
