import FormCore

/// The form's body as lines, before scrolling: section titles, one line a
/// field, errors beside the field (or under it when the row has no room).
/// Rebuilt on every draw from the session, so hidden fields appear and
/// disappear as their conditions change.
struct FormLayout {
    enum Line: Equatable {
        case blank
        case section(String)
        /// A label or comment field: text, not a value.
        case note(String)
        case field(String)
        /// The errors of a field whose row had no room for them.
        case errors(String)
        /// A group's table: the header of its row fields,
        case tableHeader(String)
        /// one line a row (group, row id),
        case tableRow(String, String)
        /// a row's errors when there is no room beside it,
        case rowErrors(String, String)
        /// and the add-a-row line, with the group's rules' errors.
        case tableEnd(String)
    }

    var lines: [Line] = []
    /// Where labels end and values begin.
    let valueColumn: Int
    /// How wide a value is drawn.
    let boxWidth: Int
    /// Where an error beside its field begins, `nil` when errors go below.
    let errorColumn: Int?
    /// Fields whose errors did not fit beside them: shown on the line below.
    private(set) var errorsBelow: Set<String> = []
    /// Where a group's row errors begin beside the table; absent: below the row.
    private(set) var rowErrorColumn: [String: Int] = [:]

    init(session: FormSession, width: Int) {
        let visible = Set(session.visibleFields.map(\.key))
        let labels = session.form.fields.filter { $0.holdsValue && visible.contains($0.key) }
            .map { DisplayWidth.of(Self.label($0)) }
        let labelWidth = min(labels.max() ?? 8, max(8, width / 3))
        valueColumn = 2 + labelWidth + 2
        boxWidth = max(4, min(40, width - valueColumn - 1))
        let beside = valueColumn + boxWidth + 2
        errorColumn = width - beside >= 16 ? beside : nil
        for section in session.form.sections {
            if let group = section.group {
                addTable(group, title: section.title, session: session, width: width)
                continue
            }
            let fields = section.fields.filter { visible.contains($0.key) && $0.kind != .action }
            guard !fields.isEmpty else { continue }
            if !lines.isEmpty { lines.append(.blank) }
            if let title = section.title, !title.isEmpty { lines.append(.section(title)) }
            for field in fields {
                guard field.holdsValue else {
                    lines.append(.note(field.label))
                    continue
                }
                lines.append(.field(field.key))
                let problems = session.errors(field.key)
                guard !problems.isEmpty else { continue }
                let fits = errorColumn.map { width - $0 >= DisplayWidth.of(Self.errorText(problems)) } ?? false
                if !fits || Self.valueIsWide(field, session: session, boxWidth: boxWidth) {
                    lines.append(.errors(field.key))
                    errorsBelow.insert(field.key)
                }
            }
        }
    }

    private mutating func addTable(_ group: RowGroup, title: String?, session: FormSession, width: Int) {
        if !lines.isEmpty { lines.append(.blank) }
        lines.append(.section(title ?? group.key))
        let table = TableLayout(group: group, session: session, width: width, first: 0, focused: nil)
        let beside = table.end + 2
        if width - beside >= 16 { rowErrorColumn[group.key] = beside }
        lines.append(.tableHeader(group.key))
        for row in session.rows(group.key) {
            lines.append(.tableRow(group.key, row.id))
            if rowErrorColumn[group.key] == nil && !FormScreen.rowProblems(session, group.key, row.id).isEmpty {
                lines.append(.rowErrors(group.key, row.id))
            }
        }
        lines.append(.tableEnd(group.key))
    }

    /// `! message; message`, as errors are drawn.
    static func errorText(_ errors: [FieldError]) -> String {
        "! " + errors.map(\.message).joined(separator: "; ")
    }

    /// The label as drawn: a required field is marked with `*`.
    static func label(_ field: Field) -> String {
        field.wantsValue ? field.label + " *" : field.label
    }

    /// A multichoice's toggles may take the whole row.
    static func valueIsWide(_ field: Field, session: FormSession, boxWidth: Int) -> Bool {
        field.kind == .multichoice && DisplayWidth.of(FormScreen.toggles(field, session: session, cursor: nil)) > boxWidth
    }

    /// The lines a cell's row (or a group's add line) and its errors take.
    func span(of cell: FormScreen.Cell) -> ClosedRange<Int>? {
        guard let row = cell.row else {
            guard let end = lines.firstIndex(of: .tableEnd(cell.group)) else { return nil }
            // An empty table comes into view with its title.
            return (lines[end - 1] == .tableHeader(cell.group) ? end - 2 : end)...end
        }
        guard let first = lines.firstIndex(of: .tableRow(cell.group, row)) else { return nil }
        let last = lines.indices.contains(first + 1) && lines[first + 1] == .rowErrors(cell.group, row) ? first + 1 : first
        // The first row comes into view with the table's title and header.
        return (lines[first - 1] == .tableHeader(cell.group) ? first - 2 : first)...last
    }

    /// The lines `field`'s row and its errors take.
    func span(of key: String) -> ClosedRange<Int>? {
        guard let first = lines.firstIndex(of: .field(key)) else { return nil }
        let last = lines.indices.contains(first + 1) && lines[first + 1] == .errors(key) ? first + 1 : first
        // A section's title comes into view with its first field.
        let top = first > 0 && { if case .section = lines[first - 1] { return true } else { return false } }() ? first - 1 : first
        return top...last
    }
}
