import FoundationEssentials
import FormBasics
import FormCore

/// The rows of repeating groups in a browser's post (drawn by `FormHTML`):
/// each row's cells are `GROUP[N].FIELD` (N its place, from 1) and
/// `GROUP[N]._key` says which stored row it is (empty for a row added on the
/// page). `_groups` lists the groups the page let the person edit, so a group
/// posted with no rows is known to have none; `_rows` holds the stored rows
/// as the page was drawn from them, the base a change is judged against.
extension FormSession {
    /// The `_key` of a row the person chose to leave out on a conflict page.
    static let leftOutRow = "-"

    /// Sets the posted rows of every group the page offered, as
    /// `apply(submitted:)` does for fields: a cell left as it was drawn is not
    /// set (another writer's change stands), a cell both changed is a
    /// conflict, a stored row the post leaves out is removed, one someone else
    /// removed or changed meanwhile is a conflict, rows someone else added stay.
    func applyRows(_ body: SubmittedForm, clearing: ((RowGroup, Field) -> FieldValue)?, into result: inout SubmissionResult) {
        guard let listed = body.value("_groups"),
              let offered = WebJSON.decoded([String].self, from: listed) else { return }
        let bases = body.value("_rows").flatMap(Self.decodeRows) ?? [:]
        for name in offered {
            guard let group = form.group(name) else {
                result.refused.append(FieldRefusal(field: name, message: "\(form.name) has no group \"\(name)\""))
                continue
            }
            if let why = whyGroupNotEditable(name) {
                result.refused.append(FieldRefusal(field: name, message: "\(name) \(why)"))
                continue
            }
            do {
                result.postedRows[name] = try applyRows(of: group, body, base: bases[name] ?? [:], clearing: clearing, into: &result)
            } catch {
                result.refused.append(FieldRefusal(field: name, message: "\(name): \(error)"))
            }
        }
    }

    private func applyRows(of group: RowGroup, _ body: SubmittedForm, base: [String: [String: String]],
                           clearing: ((RowGroup, Field) -> FieldValue)?, into result: inout SubmissionResult) throws -> [String?] {
        let name = group.key
        var storedNow: [String: String] = [:]
        for row in rows(name) { if let key = row.key { storedNow[key.description] = row.id } }
        var order: [String] = []
        var posted: [String?] = []
        var mentioned = Set<String>()
        var place = 1
        while let key = body.value(PostedName.rowKey(name, place)) {
            defer { place += 1 }
            if key == Self.leftOutRow {
                posted.append(nil)
                continue
            }
            if key.isEmpty {
                let id = try addRow(name)
                for field in group.fields where group.takesInput(field, newRow: true) {
                    let mine = submittedValue(body, field, name: PostedName.cell(name, place, field.key))
                    if mine.value == nil && mine.text.isEmpty { continue }
                    try setRow(group, id, field, mine, clearing: clearing)
                }
                order.append(id)
                posted.append(id)
                continue
            }
            mentioned.insert(key)
            let was = base[key] ?? [:]
            // A cell not posted is not given (a client posting some cells), as a field is: only a
            // box and a set of boxes say "none" by sending nothing. It was set to NULL.
            let cells = editableCells(group, stored: true).compactMap { field -> (Field, Posted)? in
                let cell = PostedName.cell(name, place, field.key)
                if field.kind != .bool, field.kind != .multichoice, body.value(cell) == nil { return nil }
                return (field, submittedValue(body, field, name: cell))
            }
            guard let id = storedNow[key] else {
                // Gone since the page was drawn: a conflict when the person changed it (a secure cell: typed).
                let changed = cells.filter { cell in
                    cell.0.isSecure ? !cell.1.text.isEmpty : was[cell.0.key].map { !$0.hasSameUTF8(as: cell.1.text) } ?? false
                }
                guard !changed.isEmpty else { posted.append(nil); continue }
                let again = try addRow(name)
                for (field, mine) in cells { try setRow(group, again, field, mine, clearing: clearing) }
                result.conflicts.append(WebConflict(field: "\(name)[\(key)]", base: "stored", mine: "changed", theirs: "deleted",
                                                    group: name, row: again))
                order.append(again)
                posted.append(again)
                continue
            }
            let stored = row(name, id)!
            for (field, posted) in cells {
                // A secure cell: empty is unchanged; typed, a conflict when the page's digest is not
                // of the value stored now (another writer's), which neither side's value is drawn in.
                if field.isSecure {
                    guard !posted.text.isEmpty else { continue }
                    if let drawn = was[field.key], let rowKey = stored.key,
                       drawn != SecureFieldDigest.ofCell(name, rowKey, field.key, stored[field.key], in: self) {
                        result.conflicts.append(WebConflict(field: "\(name)[\(key)].\(field.key)", base: "", mine: "", theirs: "",
                                                            group: name, row: id, rowField: field.key))
                    }
                    try setRow(group, id, field, posted, clearing: clearing)
                    continue
                }
                let theirs = WebText.of(stored[field.key], in: field)
                var mine = posted
                if mine.value == nil { mine.text = WebText.asStored(mine.text, stored: was[field.key] ?? theirs) }
                if let before = was[field.key], before.hasSameUTF8(as: mine.text) { continue }
                if let before = was[field.key], !before.hasSameUTF8(as: theirs), !mine.text.hasSameUTF8(as: theirs) {
                    result.conflicts.append(WebConflict(field: "\(name)[\(key)].\(field.key)", base: before, mine: mine.text,
                                                        theirs: theirs, group: name, row: id, rowField: field.key))
                }
                try setRow(group, id, field, mine, clearing: clearing)
            }
            order.append(id)
            posted.append(id)
        }
        // Stored rows the person removed: gone, unless someone changed them meanwhile.
        for (key, was) in base.sorted(by: { $0.key < $1.key }) where !mentioned.contains(key) {
            guard let id = storedNow[key], let stored = row(name, id) else { continue }
            let changed = editableCells(group, stored: true).contains { field in
                let now = field.isSecure ? stored.key.map { SecureFieldDigest.ofCell(name, $0, field.key, stored[field.key], in: self) }
                    : WebText.of(stored[field.key], in: field)
                return was[field.key].map { !$0.hasSameUTF8(as: now ?? "") } ?? false
            }
            if changed {
                result.conflicts.append(WebConflict(field: "\(name)[\(key)]", base: "stored", mine: "removed", theirs: "changed",
                                                    group: name, row: id))
                order.append(id)
            } else {
                try removeRow(name, id)
            }
        }
        // Rows someone else added since the page was drawn stay, after the person's.
        let kept = Set(order)
        order += rows(name).filter { row in row.key.map { base[$0.description] == nil } ?? false && !kept.contains(row.id) }.map(\.id)
        if group.keepsOrder {
            for (index, id) in order.enumerated() where rows(name).firstIndex(where: { $0.id == id }) != index {
                try moveRow(name, id, to: index)
            }
        }
        return posted
    }

    /// The row fields a page offers for typing (`RowGroup.takesInput`).
    func editableCells(_ group: RowGroup, stored: Bool) -> [Field] {
        group.fields.filter { group.takesInput($0, newRow: !stored) }
    }

    /// Sets a cell as `set(_:_:clearing:)` sets a field: `\N` and `""` spell
    /// NULL and empty text, an emptied input stores `clearing`'s value (the
    /// row table's "nothing") unless the cell holds nothing already.
    private func setRow(_ group: RowGroup, _ id: String, _ field: Field, _ posted: Posted,
                        clearing: ((RowGroup, Field) -> FieldValue)?) throws {
        if field.isSecure, posted.text.isEmpty { return }
        if let value = posted.value ?? Self.spelledValue(posted.text) {
            try setRow(group.key, id, field.key, value: value)
            return
        }
        if posted.text.isEmpty, let clearing {
            if (row(group.key, id)?[field.key] ?? .null).isEmpty { return }
            try setRow(group.key, id, field.key, value: clearing(group, field))
            return
        }
        if [.date, .time, .datetime].contains(field.kind), !posted.text.isEmpty,
           (try? setRow(group.key, id, field.key, value: .text(posted.text))) != nil {
            return
        }
        try setRow(group.key, id, field.key, input: posted.text)
    }

    /// `_rows`: group → stored row key → field → text.
    static func decodeRows(_ json: String) -> [String: [String: [String: String]]]? {
        WebJSON.decoded([String: [String: [String: String]]].self, from: json)
    }
}
