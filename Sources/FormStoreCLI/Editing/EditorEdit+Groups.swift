import FormCore

/// The child rows of `edit --editor --children`: shown as row blocks after
/// the parent's fields (see `EditorDocument+Groups`), read back as adds,
/// edits, removals and moves on the session, each cell parsed like a field.
extension EditorEdit {
    /// The document's group part for the session's rows now (a row's cell
    /// that did not parse shows what was typed).
    func groupSection() -> String {
        session.form.groups.map { group in
            let title = session.form.sections.first { $0.group?.key == group.key }?.title
            let rows = session.rows(group.key).map { row in
                var texts: [String: String] = [:]
                for field in EditorDocument.rowFields(group) { texts[field.key] = session.rowText(group.key, row.id, field.key) }
                let key = row.key == nil ? [] : group.keyFields.map { ($0, ValueText.text(row[$0], kind: nil, blobsBySize: false)) }
                return EditorDocument.ShownRow(id: row.id, key: key, texts: texts)
            }
            return EditorDocument.renderGroup(group, title: title, rows: rows)
        }.joined()
    }

    /// The parent's values and the row blocks of an edited document.
    ///
    /// - throws: `EditorDocumentError` as `EditorDocument.parseInputs` does,
    ///   with the row blocks' bad lines too.
    func readDocument(_ edited: String) throws -> ([String: FieldInput], EditorDocument.EditedGroups) {
        let groups = EditorDocument.parseGroups(edited, form: session.form)
        var values: [String: FieldInput] = [:]
        var problems = groups.problems
        do {
            values = try EditorDocument.parseInputs(groups.parent, form: session.form)
        } catch EditorDocumentError.cancelled where !groups.stated.isEmpty {
            values = [:]
        } catch EditorDocumentError.invalid(let found) {
            problems = found + problems
        }
        guard problems.isEmpty else { throw EditorDocumentError.invalid(problems) }
        return (values, groups)
    }

    /// Applies the row blocks to the session; returns the problems to show.
    func applyRows(_ edited: EditorDocument.EditedGroups) -> [String] {
        var problems: [String] = []
        for group in session.form.groups where edited.stated.contains(group.key) {
            let blocks = edited.rows.filter { $0.group == group.key }
            let present = Set(session.rows(group.key).map(\.id))
            let unknown = blocks.filter { $0.id.map { !present.contains($0) } ?? false }
            guard unknown.isEmpty else {
                problems += unknown.map { "line \($0.line): \(group.key) has no row \($0.id ?? "")" }
                continue
            }
            do {
                let kept = Set(blocks.compactMap(\.id))
                for row in session.rows(group.key) where !kept.contains(row.id) { try session.removeRow(group.key, row.id) }
                var order: [String] = []
                for block in blocks {
                    let id = try block.id ?? session.addRow(group.key)
                    order.append(id)
                    for (field, input) in block.values.sorted(by: { $0.key < $1.key }) {
                        try setCell(group.key, id, field, input)
                    }
                }
                if group.keepsOrder {
                    for (index, id) in order.enumerated() where session.rows(group.key).firstIndex(where: { $0.id == id }) != index {
                        try session.moveRow(group.key, id, to: index)
                    }
                }
            } catch let refused as SessionError {
                problems.append(refused.message)
            } catch let error as FieldError {
                problems.append("\(group.key): \(error.message)")
            } catch {
                problems.append("\(group.key): \(error)")
            }
        }
        return problems + session.groupErrors.map { error in
            "\(error.field ?? ""): \(error.message)"
        }
    }

    /// Sets one cell when the document's value differs from the row's.
    private func setCell(_ group: String, _ id: String, _ field: String, _ input: FieldInput) throws {
        guard let row = session.row(group, id),
              input.changes(shown: session.rowText(group, id, field), now: row[field]) else { return }
        try session.enterRow(group, id, field, input, policy: policy)
    }
}

extension GroupRowsSnapshot {
    /// The rows after `blocks`, an editor document's row blocks for
    /// `group`, as `EditorEdit.applyRows` applies them to a session, for a
    /// draft made where the session cannot be reached (a signal's handler):
    /// a cell that differs from what its row shows is parsed, kept as typed
    /// when it does not parse; rows missing from the document are removed,
    /// blocks of no row now are added; the rows take the document's order.
    func applying(_ blocks: [EditorDocument.EditedRow], of group: RowGroup, in form: Form) -> GroupRowsSnapshot {
        var result = self
        let now = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        result.rows = blocks.enumerated().map { index, block in
            var row = block.id.flatMap { now[$0] } ?? GroupRow(id: "document-\(index + 1)", values: [:], key: nil)
            for (key, input) in block.values {
                guard let field = group.field(key) else { continue }
                let shown = result.inputs[row.id]?[key] ?? field.format(row[key])
                guard input.changes(shown: shown, now: row[key]) else { continue }
                let parsed = input.givenValue.map { field.parse(value: $0, in: form) } ?? field.parse(input.text, in: form)
                switch parsed {
                case .success(let value):
                    row.values[key] = value
                    result.inputs[row.id]?[key] = nil
                case .failure:
                    result.inputs[row.id, default: [:]][key] = input.text
                }
            }
            return row
        }
        let kept = Set(result.rows.map(\.id))
        result.inputs = result.inputs.filter { kept.contains($0.key) && !$0.value.isEmpty }
        return result
    }
}
