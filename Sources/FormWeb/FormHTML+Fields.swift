import FormCore

/// One field's row: its label, input by kind, hint and errors.
extension FormHTML {
    func field(_ field: Field) -> String {
        let id = HTML.id("f-", field.key)
        let name = HTML.escape(field.key)
        switch field.kind {
        case .label, .comment:
            return "<p class=\"note\" id=\"\(id)\">\(HTML.escape(field.label))</p>\n"
        case .action:
            // The page draws its own actions (Save, Edit, Delete) as buttons and links.
            return ""
        default: break
        }
        let editable = !options.readOnly && session.whyNotEditable(field.key) == nil
        let reference = options.references[field.key]
        let errors = session.errors(field.key).map(\.message) + [reference?.problem].compactMap { $0 }
        var described: [String] = []
        if field.hint != nil { described.append(id + "-hint") }
        if reference?.label != nil { described.append(id + "-ref") }
        if !errors.isEmpty { described.append(id + "-error") }
        var common = "name=\"\(name)\" id=\"\(id)\""
        if !described.isEmpty { common += " aria-describedby=\"\(described.joined(separator: " "))\"" }
        if !errors.isEmpty { common += " aria-invalid=\"true\"" }
        // The browser's `required` refuses '' and an unchecked box: only for `isRequired`, not a NOT NULL column.
        if field.wantsValue { common += field.isRequired ? " required aria-required=\"true\"" : " aria-required=\"true\"" }
        let text = WebText.of(field.key, in: session)
        let required = field.wantsValue ? " <span class=\"required\" aria-hidden=\"true\">*</span>" : ""
        var out = "<div class=\"field\(errors.isEmpty ? "" : " invalid")\" data-field=\"\(name)\">\n"
        switch field.kind {
        case .bool:
            out += "<input type=\"checkbox\" \(common) value=\"on\"\(session.value(field.key).boolValue == true ? " checked" : "")\(editable ? "" : " disabled")>\n"
            out += "<label for=\"\(id)\">\(HTML.escape(field.label))\(required)</label>\n"
        case .choice where field.choiceStyle != .picker, .multichoice:
            out += choiceGroup(field, id: id, described: described, invalid: !errors.isEmpty, editable: editable, required: required)
        default:
            out += "<label for=\"\(id)\">\(HTML.escape(field.label))\(required)</label>\n"
            if let reference {
                out += self.reference(reference, id: id, list: HTML.id("r-", field.key), value: session.value(field.key),
                                      common: common, text: text, editable: editable)
            } else {
                out += control(field, common: common, text: text, editable: editable)
            }
        }
        if let hint = field.hint {
            out += "<p class=\"hint\" id=\"\(id)-hint\">\(HTML.escape(hint))</p>\n"
        }
        out += "<p class=\"error\" id=\"\(id)-error\"\(errors.isEmpty ? " hidden" : "")>"
        out += errors.map(HTML.escape).joined(separator: "<br>") + "</p>\n"
        return out + "</div>\n"
    }

    /// A text-like input, a textarea or a select.
    private func control(_ field: Field, common: String, text: String, editable: Bool) -> String {
        let locked = editable ? "" : " readonly"
        var extra = ""
        if let placeholder = field.placeholder { extra += " placeholder=\"\(HTML.escape(placeholder))\"" }
        switch field.kind {
        case .multiline:
            return "<textarea \(common) rows=\"4\"\(locked)\(extra)>\(HTML.escape(text))</textarea>\n"
        case .choice:
            var out = "<select \(common)\(editable ? "" : " disabled")>\n<option value=\"\"></option>\n"
            let value = session.value(field.key)
            for choice in field.choices {
                out += "<option value=\"\(HTML.escape(choice.valueText))\""
                if WebText.isChosen(choice, in: value) { out += " selected" }
                if choice.isDisabled { out += " disabled" }
                out += ">\(HTML.escape(choice.label))</option>\n"
            }
            return out + "</select>\n"
        case .password:
            // A secure value never goes back to the browser: empty means unchanged.
            return "<input type=\"password\" \(common) value=\"\" autocomplete=\"new-password\"\(locked)\(extra)>\n"
        default:
            let (type, attributes) = Self.inputType(field.kind)
            if !field.suggestions.isEmpty { extra += " list=\"\(HTML.id("s-", field.key))\"" }
            var out = "<input type=\"\(type)\" \(common) value=\"\(HTML.escape(text))\"\(attributes)\(locked)\(extra)>\n"
            if !field.suggestions.isEmpty {
                out += "<datalist id=\"\(HTML.id("s-", field.key))\">"
                out += field.suggestions.map { "<option value=\"\(HTML.escape($0))\">" }.joined() + "</datalist>\n"
            }
            return out
        }
    }

    /// Radio buttons (a choice drawn as buttons) or checkboxes (a multichoice), in a fieldset of their own.
    private func choiceGroup(_ field: Field, id: String, described: [String], invalid: Bool, editable: Bool,
                             required: String) -> String {
        let type = field.kind == .multichoice ? "checkbox" : "radio"
        var out = "<fieldset class=\"choices\" id=\"\(id)\""
        if !described.isEmpty { out += " aria-describedby=\"\(described.joined(separator: " "))\"" }
        if invalid { out += " aria-invalid=\"true\"" }
        out += "><legend>\(HTML.escape(field.label))\(required)</legend>\n"
        let value = session.value(field.key)
        for (index, choice) in field.choices.enumerated() {
            let optionID = "\(id)-\(index)"
            out += "<label for=\"\(optionID)\"><input type=\"\(type)\" name=\"\(HTML.escape(field.key))\" id=\"\(optionID)\""
            out += " value=\"\(HTML.escape(choice.valueText))\""
            if WebText.isChosen(choice, in: value) { out += " checked" }
            if !editable || choice.isDisabled { out += " disabled" }
            out += "> \(HTML.escape(choice.label))</label>\n"
        }
        return out + "</fieldset>\n"
    }

    /// The input type for a kind, and attributes that help a phone's keyboard.
    static func inputType(_ kind: FieldKind) -> (String, String) {
        switch kind {
        case .email: return ("email", " autocomplete=\"email\" inputmode=\"email\"")
        case .phone: return ("tel", " autocomplete=\"tel\" inputmode=\"tel\"")
        case .url: return ("url", " inputmode=\"url\"")
        // Numbers are text with a numeric keyboard: a `number` input drops what
        // does not parse before the server can say why.
        case .integer: return ("text", " inputmode=\"numeric\"")
        case .decimal: return ("text", " inputmode=\"decimal\"")
        case .date: return ("date", "")
        case .time: return ("time", " step=\"1\"")
        case .datetime: return ("datetime-local", " step=\"1\"")
        case .name: return ("text", " autocomplete=\"off\"")
        case .zip: return ("text", " inputmode=\"numeric\" autocomplete=\"postal-code\"")
        default: return ("text", "")
        }
    }
}
