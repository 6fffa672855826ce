/// The JSON door for repeating groups: a group's member is an array of row
/// objects, and states the whole group.
///
/// ```json
/// {"total": 4.5, "lines": [{"id": 10, "amount": 3}, {"item": "Jam", "amount": 1.5}]}
/// ```
///
/// A row naming a stored row's key (the key columns that are not the foreign
/// key to the parent) updates that row with the members it has; a row without
/// one is inserted; a stored row the array leaves out is deleted; the rows take
/// the array's order where the group keeps one. A group the document leaves
/// out is not touched.
extension FormSession {
    /// One group's rows as a document states them, checked.
    struct GroupPlan {
        var group: RowGroup
        var rows: [(id: String?, values: [String: FieldValue])]
    }

    /// Reads and checks the groups' members; throws every problem at once.
    func groupPlans(_ members: [JSONNode.Member]) throws(JSONBodyError) -> [GroupPlan] {
        var errors: [FieldError] = []
        var plans: [GroupPlan] = []
        for member in members {
            guard let group = form.group(member.key) else { continue }
            if let why = whyGroupNotEditable(group.key) {
                errors.append(FieldError(field: group.key, code: "notEditable", message: "\(group.key) \(why)"))
                continue
            }
            guard case .array(let items) = member.value else {
                errors.append(FieldError(field: group.key, code: "kind",
                                         message: "\(group.key) takes an array of row objects, not \(member.value.typeName)"))
                continue
            }
            let identity = group.keyFields.filter { !group.foreignKey.contains($0) }
            let stored = Dictionary(rows(group.key).compactMap { row -> ([FieldValue], String)? in
                guard row.key != nil else { return nil }
                return (identity.map { row[$0] }, row.id)
            }, uniquingKeysWith: { a, _ in a })
            var plan = GroupPlan(group: group, rows: [])
            // Where each key was first stated: a row stated twice would be
            // updated twice over, the second silently winning.
            var firstStated: [[FieldValue]: String] = [:]
            for (index, item) in items.enumerated() {
                let at = GroupPath.position(group.key, index + 1)
                guard case .object(let cells) = item else {
                    errors.append(FieldError(field: at, code: "kind", message: "\(at) must be an object, not \(item.typeName)"))
                    continue
                }
                // A row naming no stored row's key is new (its date cells keep their text as given).
                let givenKey = identity.map { name in cells.first { $0.key == name }?.fieldValue ?? .null }
                let storedRow = stored[givenKey].flatMap { id in groupState.pristine[group.key]?.first { $0.id == id } }
                var values: [String: FieldValue] = [:]
                // Each field's cell as read, and its error: taken once the row is known (below).
                var parsed: [(field: Field, given: FieldValue?, result: Result<FieldValue, FieldError>)] = []
                for cell in cells {
                    let path = "\(at).\(cell.key)"
                    if let field = group.field(cell.key) {
                        // A secure cell given as it is shown (`Field.shownSecret`): left out, as no value.
                        if field.isShownSecret(cell.fieldValue) { continue }
                        var result = machineValue(cell.fieldValue, for: field, group: group.key, new: storedRow == nil,
                                                  stored: storedRow?[field.key] ?? .null)
                        if case .failure(var error) = result {
                            error.field = path
                            result = .failure(error)
                        }
                        if case .success(let value) = result { values[cell.key] = value }
                        parsed.append((field, cell.fieldValue, result))
                    } else if group.keyFields.contains(cell.key), let value = cell.fieldValue {
                        values[cell.key] = value
                    } else {
                        errors.append(FieldError(field: path, code: "unknownField", message: "\(group.key) has no field \(cell.key.quoted)"))
                    }
                }
                let key = identity.map { values[$0] ?? .null }
                // A row naming its key (NULL too: a stored row's key may be NULL) is the stored row
                // with that key, if any; a row leaving its key out, or naming none stored, is new.
                let stated = !identity.isEmpty && identity.allSatisfy { name in cells.contains { $0.key == name } }
                let id = stated ? stored[key] : nil
                if stated && (!key.contains(.null) || id != nil) {
                    if let first = firstStated[key] {
                        errors.append(FieldError(field: at, code: "duplicate",
                                                 message: "has the same \(identity.joined(separator: ", ")) as \(first)"))
                        continue
                    }
                    firstStated[key] = at
                }
                // A stored row's cell given as it is, is no change: neither checked nor refused
                // (a REAL in an INTEGER column, a date kept as `02/01/2024`), as a field's is.
                let current = id.flatMap { self.row(group.key, $0) }
                let loaded = id.flatMap { id in groupState.pristine[group.key]?.first { $0.id == id } }
                for (field, given, result) in parsed {
                    if let current, let given,
                       isSame(given, as: current[field.key], stored: loaded?[field.key] ?? .null, field: field, group: group.key) {
                        values[field.key] = current[field.key]
                    } else if case .failure(let error) = result {
                        errors.append(error)
                    }
                }
                // A new row naming its key (an export's, imported into another copy) is written in the
                // forms its values came in, as a new record's are: a date as `2024-3-5`, a Julian day.
                if id == nil, stated, !key.contains(.null) {
                    let given = parsed.compactMap { cell in cell.given.map { (cell.field.key, $0) } }
                    extras.rowStoredForms[group.key, default: [:]][RecordKey(columns: identity, values: key)]
                        = Dictionary(given, uniquingKeysWith: { first, _ in first })
                }
                plan.rows.append((id, values))
            }
            plans.append(plan)
        }
        guard errors.isEmpty else { throw JSONBodyError(errors: errors) }
        return plans
    }

    /// Applies checked plans through the session's row edits.
    func apply(_ plans: [GroupPlan]) throws(JSONBodyError) {
        do {
            for plan in plans {
                let group = plan.group.key
                var order: [String] = []
                for (id, values) in plan.rows {
                    guard let id else {
                        order.append(try addRow(group, values: values))
                        continue
                    }
                    for (field, value) in values.sorted(by: { $0.key < $1.key })
                    where plan.group.field(field) != nil && row(group, id)?[field] != value && !plan.group.keyFields.contains(field) {
                        try setRow(group, id, field, value: value)
                    }
                    order.append(id)
                }
                let kept = Set(order)
                for row in rows(group) where !kept.contains(row.id) { try removeRow(group, row.id) }
                if plan.group.keepsOrder {
                    for (index, id) in order.enumerated() where rows(group).firstIndex(where: { $0.id == id }) != index {
                        try moveRow(group, id, to: index)
                    }
                }
            }
        } catch let error as FieldError {
            throw JSONBodyError(errors: [error])
        } catch {
            throw JSONBodyError(errors: [FieldError(field: nil, code: "notEditable", message: "\(error)")])
        }
    }
}
