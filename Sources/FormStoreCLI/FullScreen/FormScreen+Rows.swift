import FormBasics
import FormCore

/// The rows of a repeating group, edited as a table: the focus moves through
/// the cells like through fields, a cell is typed in with the same line
/// editor, and the session parses, validates and transforms each cell like a
/// field. Ctrl-N adds a row, Ctrl-X deletes one (asking), Alt-↑/↓ moves one
/// when the group keeps an order.
extension FormScreen {
    /// A cell of a group's table; `row == nil` is the group's add-a-row line
    /// (where the focus rests on a group without rows).
    struct Cell: Equatable {
        var group: String
        var row: String?
        var field: String?
    }

    /// A place the focus can rest on.
    enum Stop: Equatable {
        case field(String)
        case cell(Cell)
    }

    /// Every stop in form order: visible fields, then for a group each
    /// editable cell of each row and the group's add-a-row line.
    var stops: [Stop] {
        let keys = Set(focusableKeys)
        var all: [Stop] = []
        for section in form.sections {
            if let group = section.group {
                for row in session.rows(group.key) {
                    for field in Self.editableColumns(group, row: row) {
                        all.append(.cell(Cell(group: group.key, row: row.id, field: field.key)))
                    }
                }
                all.append(.cell(Cell(group: group.key)))
            } else {
                all += section.fields.map(\.key).filter(keys.contains).map(Stop.field)
            }
        }
        return all
    }

    var currentStop: Stop? { cell.map(Stop.cell) ?? focus.map(Stop.field) }

    func go(to stop: Stop) {
        switch stop {
        case .field(let key):
            cell = nil
            focus = key
            focusChanged()
        case .cell(let target):
            focus = nil
            cell = target
            cellChanged()
        }
    }

    /// The row fields drawn as columns: those holding a value.
    static func columns(_ group: RowGroup) -> [Field] {
        group.fields.filter { $0.holdsValue && $0.kind != .action }
    }

    /// The columns the focus rests on: not read-only, and not a stored row's
    /// key. A new row's part of a composite key (a track's number on its
    /// album) is typed, as the session takes it; a single key is given by storage.
    static func editableColumns(_ group: RowGroup, row: GroupRow) -> [Field] {
        columns(group).filter { group.takesInput($0, newRow: row.key == nil) }
    }

    var focusedGroup: RowGroup? { cell.flatMap { form.group($0.group) } }

    var focusedColumn: Field? {
        guard let cell, let name = cell.field else { return nil }
        return focusedGroup?.field(name)
    }

    /// The focus came to a cell: its text goes into the line editor.
    func cellChanged() {
        typed = false
        editor = nil
        guard let cell, let row = cell.row, let field = focusedColumn, Self.isTyped(field),
              session.whyGroupNotEditable(cell.group) == nil else { return }
        editor = LineEditor(field.isSecure ? "" : session.rowText(cell.group, row, field.key))
    }

    /// The person leaves a cell: free mode saves what was typed.
    func leaveCell() throws {
        guard let cell, let row = cell.row, let name = cell.field else { return }
        defer { editor = nil }
        guard typed, let editor else { return }
        typed = false
        if form.mode == .free { try setCell(cell.group, row, name, editor.text) }
    }

    /// A row removed (or a group hidden) takes the focus to the group's add line.
    func keepCellPresent() {
        guard let cell else { return }
        if let row = cell.row, session.row(cell.group, row) == nil {
            self.cell = Cell(group: cell.group)
            cellChanged()
        }
    }

    private func setCell(_ group: String, _ row: String, _ field: String, _ text: String) throws {
        do {
            // `\N` is NULL and `""` empty text, as in a field (docs/terminal.md).
            try report(try session.enterRow(group, row, field, Prompter.fieldInput(text, readingEscapes: false), policy: policy), field: group)
        } catch let refused as SessionError {
            say(refused.message, problem: true)
        }
    }

    // MARK: Keys

    /// Keys on a cell or on a group's add line; `false` when the key is not a cell's.
    func handleCell(_ key: Key) throws -> Bool {
        guard let cell else { return false }
        switch key {
        case .control("n"):
            try addRow(after: cell)
        case .control("x"):
            guard cell.row != nil else { say("Ctrl-X deletes the row the cursor is on.", problem: true); return true }
            if let why = session.whyGroupNotEditable(cell.group) { say("\(groupTitle(cell.group)) \(why)", problem: true); return true }
            try leaveCell()
            overlay = .confirmDeleteRow(cell)
        case .rowUp, .rowDown:
            try moveRow(cell, by: key == .rowUp ? -1 : 1)
        case .enter where cell.row == nil:
            try addRow(after: cell)
        default:
            guard cell.row != nil, let field = focusedColumn else { return false }
            if let why = session.whyGroupNotEditable(cell.group) {
                if case .character = key { say("\(groupTitle(cell.group)) \(why)", problem: true) }
                return true
            }
            try editCell(cell, field, key)
        }
        return true
    }

    private func editCell(_ cell: Cell, _ field: Field, _ key: Key) throws {
        guard let row = cell.row else { return }
        if key == .enter, cellRefersToRows(cell, field) {
            // A foreign key: Enter opens the referenced rows, as on a field (what was typed is set first).
            try leaveCell()
            overlay = .picker(Picker(field: field.key, cell: cell))
            return
        }
        if Self.isTyped(field) {
            guard var line = editor else { return }
            let before = line.text
            guard line.apply(key) else { return }
            editor = line
            guard !line.text.hasSameUTF8(as: before) else { return }
            typed = true
            if form.mode != .free { try setCell(cell.group, row, field.key, line.text) }
            return
        }
        guard key == .character(" ") || key == .enter else { return }
        let now = session.row(cell.group, row)?[field.key] ?? .null
        do {
            if field.kind == .bool {
                try report(try session.setRow(cell.group, row, field.key, value: .bool(!(now.boolValue ?? false))), field: cell.group)
            } else if !field.choices.isEmpty {
                // A choice cell steps through its choices.
                let choices = offeredChoices(field)
                let next = ((choices.firstIndex { $0.value == now } ?? -1) + 1) % max(1, choices.count)
                if choices.indices.contains(next) {
                    try report(try session.setRow(cell.group, row, field.key, value: choices[next].value), field: cell.group)
                }
            }
        } catch let refused as SessionError {
            say(refused.message, problem: true)
        }
    }

    private func addRow(after cell: Cell) throws {
        try leaveCell()
        let rows = session.rows(cell.group)
        let index = cell.row.flatMap { id in rows.firstIndex { $0.id == id } }.map { $0 + 1 }
        do {
            let id = try session.addRow(cell.group, at: index)
            guard let group = form.group(cell.group), let row = session.row(cell.group, id) else { return }
            let first = Self.editableColumns(group, row: row).first
            go(to: .cell(Cell(group: cell.group, row: id, field: first?.key)))
            say("Row added to \(groupTitle(cell.group)).")
        } catch let refused as SessionError {
            say(refused.message, problem: true)
        }
    }

    private func moveRow(_ cell: Cell, by step: Int) throws {
        guard let id = cell.row else { return }
        guard let group = form.group(cell.group), group.keepsOrder else {
            say("The rows of \(groupTitle(cell.group)) keep the order of their keys: they cannot be moved.", problem: true)
            return
        }
        try leaveCell()
        let rows = session.rows(cell.group)
        guard let index = rows.firstIndex(where: { $0.id == id }), rows.indices.contains(index + step) else { return }
        do {
            try session.moveRow(cell.group, id, to: index + step)
            cellChanged()
        } catch let refused as SessionError {
            say(refused.message, problem: true)
        }
    }

    func handleConfirmDeleteRow(_ key: Key, _ cell: Cell) throws -> Action {
        switch key {
        case .character("y"), .character("Y"):
            overlay = nil
            guard let id = cell.row else { return .none }
            let rows = session.rows(cell.group)
            let index = rows.firstIndex { $0.id == id } ?? 0
            // The focus stays in the same column, on the row that takes the deleted one's place.
            let next = rows.indices.contains(index + 1) ? rows[index + 1].id : index > 0 ? rows[index - 1].id : nil
            do {
                try session.removeRow(cell.group, id)
                self.cell = next.map { Cell(group: cell.group, row: $0, field: cell.field) } ?? Cell(group: cell.group)
                cellChanged()
                let position = index + 1
                say("Row \(position) of \(groupTitle(cell.group)) deleted\(form.mode == .free ? "" : " (when saved)").")
            } catch let refused as SessionError {
                say(refused.message, problem: true)
            }
            keepCellPresent()
        case .character("n"), .character("N"), .escape:
            overlay = nil
            cellChanged()
        default:
            break
        }
        return .none
    }

    /// After a refused save: the focus on the cell a path names (`lines[#2].amount`).
    func focusCell(at path: String) {
        guard let open = path.firstIndex(of: "["), let close = path.firstIndex(of: "]") else { return }
        let group = String(path[..<open])
        let position = Int(path[path.index(open, offsetBy: 2)..<close]) ?? 0
        let rest = path[path.index(after: close)...]
        let rows = session.rows(group)
        guard rows.indices.contains(position - 1) else { return }
        let field = rest.hasPrefix(".") ? String(rest.dropFirst()) : nil
        go(to: .cell(Cell(group: group, row: rows[position - 1].id, field: field)))
    }

    func groupTitle(_ group: String) -> String { FieldDisplay.groupTitle(group, in: form) }
}
