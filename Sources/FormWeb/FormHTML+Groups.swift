import FoundationEssentials
import FormCore

/// A repeating group drawn as a table of rows: a `<label>` for every input
/// (shown above each cell at phone width, read by screen readers always),
/// each row's errors beside its inputs, the group's rules under its legend,
/// and Add, Remove and Move buttons that are plain submit buttons, so they
/// work without script: the post carries everything typed (`RowAction`).
extension FormHTML {
    /// The groups the person may change rows of now.
    var editableGroups: [RowGroup] {
        guard !options.readOnly else { return [] }
        return session.form.groups.filter { session.whyGroupNotEditable($0.key) == nil }
    }

    /// The `<fieldset>` of a group's section.
    func group(_ section: Section, _ group: RowGroup) -> String {
        let id = Self.groupID(group.key)
        let editable = !options.readOnly && session.whyGroupNotEditable(group.key) == nil
        let title = section.title ?? group.key
        let rules = Self.rules(group, form: session.form)
        let errors = session.groupErrors.filter { $0.field == group.key || group.sums.map(\.field).contains($0.field ?? "") }
        var described: [String] = []
        if !rules.isEmpty { described.append(id + "-rules") }
        if !errors.isEmpty { described.append(id + "-error") }
        var out = "<fieldset class=\"group\(errors.isEmpty ? "" : " invalid")\" id=\"\(id)\" data-group=\"\(HTML.escape(group.key))\""
        if !described.isEmpty { out += " aria-describedby=\"\(described.joined(separator: " "))\"" }
        out += ">\n<legend>\(HTML.escape(title))</legend>\n"
        if !rules.isEmpty { out += "<p class=\"hint\" id=\"\(id)-rules\">\(HTML.escape(rules))</p>\n" }
        let fields = group.fields.filter { $0.holdsValue }
        let rows = session.rows(group.key)
        if rows.isEmpty {
            out += "<p class=\"no-rows\">No rows yet.</p>\n"
        } else {
            out += "<div class=\"rows-scroll\"><table class=\"rows\">\n<caption class=\"visually-hidden\">\(HTML.escape(title))</caption>\n"
            out += "<thead><tr><th scope=\"col\">#</th>"
            for field in fields {
                out += "<th scope=\"col\">\(HTML.escape(field.label))\(field.wantsValue ? " <span class=\"required\" aria-hidden=\"true\">*</span>" : "")</th>"
            }
            if editable { out += "<th scope=\"col\"><span class=\"visually-hidden\">Row actions</span></th>" }
            out += "</tr></thead>\n<tbody>\n"
            for (index, row) in rows.enumerated() {
                out += self.row(row, place: index + 1, of: rows.count, group: group, fields: fields, editable: editable)
            }
            out += "</tbody>\n</table></div>\n"
        }
        out += "<p class=\"error\" id=\"\(id)-error\"\(errors.isEmpty ? " hidden" : "")>"
        out += errors.map { HTML.escape($0.message) }.joined(separator: "<br>") + "</p>\n"
        if editable {
            let add = RowAction(kind: .add, group: group.key, place: 0)
            out += "<div class=\"actions\"><button type=\"submit\" class=\"secondary\" name=\"_row\" value=\"\(HTML.escape(add.buttonValue))\">"
            out += "Add a row<span class=\"visually-hidden\"> to \(HTML.escape(title))</span></button></div>\n"
        }
        return out + "</fieldset>\n"
    }

    private func row(_ row: GroupRow, place: Int, of count: Int, group: RowGroup, fields: [Field], editable: Bool) -> String {
        let invalid = session.groupErrors.contains { $0.field?.hasPrefix(GroupPath.position(group.key, place) + ".") == true }
        var out = "<tr\(invalid ? " class=\"invalid\"" : "")><th scope=\"row\">\(place)"
        if editable {
            out += "<input type=\"hidden\" name=\"\(HTML.escape(PostedName.rowKey(group.key, place)))\" value=\"\(HTML.escape(row.key?.description ?? ""))\">"
        }
        out += "</th>\n"
        for field in fields {
            out += "<td data-cell=\"\(HTML.escape(GroupPath.position(group.key, place, field.key)))\">"
            out += cell(row, field, place: place, group: group, editable: editable) + "</td>\n"
        }
        if editable {
            out += "<td class=\"row-actions\">"
            var buttons: [(RowAction.Kind, String, String)] = []
            if group.keepsOrder && place > 1 { buttons.append((.up, "↑", "Move row \(place) up")) }
            if group.keepsOrder && place < count { buttons.append((.down, "↓", "Move row \(place) down")) }
            buttons.append((.remove, "Remove", "Remove row \(place)"))
            for (kind, text, label) in buttons {
                let action = RowAction(kind: kind, group: group.key, place: place)
                out += "<button type=\"submit\" class=\"secondary\(kind == .remove ? " remove" : "")\" name=\"_row\" value=\"\(HTML.escape(action.buttonValue))\""
                out += " aria-label=\"\(HTML.escape(label))\" title=\"\(HTML.escape(label))\">\(text)</button>"
            }
            out += "</td>\n"
        }
        return out + "</tr>\n"
    }

    /// One cell: a label (hidden but at phone width), the input by kind, its errors.
    private func cell(_ row: GroupRow, _ field: Field, place: Int, group: RowGroup, editable rowEditable: Bool) -> String {
        let id = Self.cellID(group.key, place, field.key)
        let name = HTML.escape(PostedName.cell(group.key, place, field.key))
        let editable = rowEditable && group.takesInput(field, newRow: row.key == nil)
        let path = GroupPath.position(group.key, place, field.key)
        let reference = options.rowReferences[path]
        let errors = session.groupErrors.filter { $0.field == path }.map(\.message) + [reference?.problem].compactMap { $0 }
        var described: [String] = []
        if reference?.label != nil { described.append(id + "-ref") }
        if !errors.isEmpty { described.append(id + "-error") }
        var common = "name=\"\(name)\" id=\"\(id)\""
        if !errors.isEmpty { common += " aria-invalid=\"true\"" }
        if !described.isEmpty { common += " aria-describedby=\"\(described.joined(separator: " "))\"" }
        if field.wantsValue && editable { common += field.isRequired ? " required aria-required=\"true\"" : " aria-required=\"true\"" }
        let text = WebText.of(row: row.id, field, group: group.key, in: session)
        // Empty text, dim, apart from NULL (nothing), as a field's input shows it.
        // Never a secure one's: the dim `""` told a viewer the secret was empty text.
        if text.isEmpty, row[field.key] == .text(""), field.placeholder == nil, !field.isSecure,
           ![.bool, .choice, .multichoice, .password].contains(field.kind) {
            common += " placeholder=\"&quot;&quot;\""
        }
        let required = field.wantsValue && editable ? " <span class=\"required\" aria-hidden=\"true\">*</span>" : ""
        var out = "<label class=\"cell-label\" for=\"\(id)\">\(HTML.escape(field.label))\(required)<span class=\"visually-hidden\">, row \(place)</span></label>"
        switch field.kind {
        // A secure cell (a spec's `"secure": true` on any kind) is typed where it does not show, as a
        // field is, and its value never goes to the browser: it was a text input holding it.
        case _ where field.isSecure, .password:
            out += "<input type=\"password\" \(common) value=\"\" autocomplete=\"new-password\"\(editable ? "" : " readonly")>"
        case _ where reference != nil && ![.bool, .choice, .multichoice, .password].contains(field.kind):
            out += self.reference(reference!, id: id, list: id + "-list", value: row[field.key], common: common, text: text,
                                  editable: editable)
        case .bool:
            out += Self.boolControl(field, value: row[field.key], common: common, editable: editable)
        case .choice, .multichoice:
            out += "<select \(common)\(field.kind == .multichoice ? " multiple" : "")\(editable ? "" : " disabled")>"
            if field.kind == .choice { out += "<option value=\"\"></option>" }
            for choice in field.choices {
                out += "<option value=\"\(HTML.escape(choice.valueText))\"\(WebText.isChosen(choice, in: row[field.key]) ? " selected" : "")"
                out += "\(choice.isDisabled ? " disabled" : "")>\(HTML.escape(choice.label))</option>"
            }
            out += "</select>"
        case .multiline:
            out += HTML.textarea("\(common) rows=\"2\"\(editable ? "" : " readonly")", text)
        default:
            if let (type, attributes) = Self.inputType(field.kind, holding: text) {
                out += "<input type=\"\(type)\" \(common) value=\"\(HTML.escape(text))\"\(attributes)\(editable ? "" : " readonly")>"
            } else {
                out += HTML.textarea("\(common) rows=\"2\"\(editable ? "" : " readonly")", text)
            }
        }
        out += "<p class=\"error\" id=\"\(id)-error\"\(errors.isEmpty ? " hidden" : "")>\(errors.map(HTML.escape).joined(separator: "<br>"))</p>"
        return out
    }

    /// The group's rules in words: how many rows, what differs, what sums.
    static func rules(_ group: RowGroup, form: Form) -> String {
        var parts: [String] = []
        switch (group.minRows, group.maxRows) {
        case let (min?, max?): parts.append("\(min) to \(max) rows")
        case let (min?, nil): parts.append("At least \(min) row\(min == 1 ? "" : "s")")
        case let (nil, max?): parts.append("At most \(max) row\(max == 1 ? "" : "s")")
        default: break
        }
        for key in group.uniqueFields {
            parts.append("\(group.field(key)?.label ?? key) differs from row to row")
        }
        for sum in group.sums {
            parts.append("\(form.field(sum.field)?.label ?? sum.field) is the sum of \(group.field(sum.column)?.label ?? sum.column)")
        }
        return parts.isEmpty ? "" : parts.joined(separator: ". ") + "."
    }

    /// The stored rows the page was drawn from, as the browser shows their
    /// cells: a post compares with them (`FormSession.apply(submitted:)`).
    func rowsJSON() -> String {
        var groups: [String: [String: [String: String]]] = [:]
        for group in editableGroups {
            var rows: [String: [String: String]] = [:]
            for row in session.loadedRows(group.key) {
                guard let key = row.key else { continue }
                var cells: [String: String] = [:]
                for field in session.editableCells(group, stored: true) {
                    // A secure cell's value is never on the page: its keyed digest tells a post it changed.
                    cells[field.key] = field.isSecure ? SecureFieldDigest.ofCell(group.key, key, field.key, row[field.key], in: session)
                        : WebText.of(row[field.key], in: field)
                }
                rows[key.description] = cells
            }
            groups[group.key] = rows
        }
        return WebJSON.encoded(groups, or: "{}")
    }

    static func groupID(_ key: String) -> String { HTML.id("g-", key) }

    static func cellID(_ group: String, _ place: Int, _ field: String) -> String {
        groupID(group) + "-\(place)-" + HTML.id("", field)
    }

    /// An error as the summary lists it: a row's cell error says which row
    /// (`Lines, row 3: Amount is not a number`), as it is read far from its cell.
    func summaryText(_ error: FieldError) -> String {
        guard let name = error.field, error.code != "unique" else { return error.message }
        for group in session.form.groups where name.hasPrefix(group.key + "[#") {
            let rest = name.dropFirst(group.key.count + 2)
            guard let close = rest.firstIndex(of: "]"), let place = Int(rest[..<close]) else { continue }
            let title = session.form.sections.first { $0.group?.key == group.key }?.title ?? group.key
            return "\(title), row \(place): \(error.message)"
        }
        return error.message
    }

    /// Where an error named by the session points: a field, a row's cell
    /// (`lines[#2].amount`), or a group (`lines`).
    func anchor(_ name: String) -> String? {
        if session.form.field(name) != nil { return HTML.id("f-", name) }
        if session.form.group(name) != nil { return Self.groupID(name) }
        for group in session.form.groups where name.hasPrefix(group.key + "[#") {
            let rest = name.dropFirst(group.key.count + 2)
            guard let close = rest.firstIndex(of: "]"), let place = Int(rest[..<close]) else { continue }
            let field = rest[close...].dropFirst(2)
            return field.isEmpty ? Self.groupID(group.key) : Self.cellID(group.key, place, String(field))
        }
        return nil
    }
}
