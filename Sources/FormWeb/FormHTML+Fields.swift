import FormBasics
import FormCore

/// One field's row: its label, input by kind, hint and errors.
extension FormHTML {
    func field(_ field: Field) -> String {
        let id = HTML.id("f-", field.key)
        let name = HTML.escape(PostedName.field(field.key))
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
        var out = "<div class=\"field\(errors.isEmpty ? "" : " invalid")\" data-field=\"\(HTML.escape(field.key))\">\n"
        switch field.kind {
        case .bool where !field.isSecure:
            let value = session.value(field.key)
            let label = "<label for=\"\(id)\">\(HTML.escape(field.label))\(required)</label>\n"
            let control = Self.boolControl(field, value: value, common: common, editable: editable) + "\n"
            out += Self.drawsBoolAsSelect(field, value: value) ? label + control : control + label
        case .choice where field.choiceStyle != .picker && !field.isSecure, .multichoice where !field.isSecure:
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
        if let placeholder = field.placeholder {
            extra += " placeholder=\"\(HTML.escape(placeholder))\""
        } else if !field.isSecure, session.inputs[field.key] == nil, session.value(field.key) == .text("") {
            // Empty text, dim, apart from NULL (nothing), as `show` writes them (docs/fidelity.md).
            extra += " placeholder=\"&quot;&quot;\""
        }
        // A secure value never goes back to the browser: empty means unchanged. Any secure field
        // (a spec's `"secure": true` on a text field too) is typed where it does not show.
        if field.isSecure || field.kind == .password {
            return "<input type=\"password\" \(common) value=\"\" autocomplete=\"new-password\"\(locked)\(extra)>\n"
        }
        switch field.kind {
        case .multiline:
            return HTML.textarea("\(common) rows=\"4\"\(locked)\(extra)", text) + "\n"
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
        default:
            guard let (type, attributes) = Self.inputType(field.kind, holding: text) else {
                return HTML.textarea("\(common) rows=\"4\"\(locked)\(extra)", text) + "\n"
            }
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
            out += "<label for=\"\(optionID)\"><input type=\"\(type)\" name=\"\(HTML.escape(PostedName.field(field.key)))\" id=\"\(optionID)\""
            out += " value=\"\(HTML.escape(choice.valueText))\""
            if WebText.isChosen(choice, in: value) { out += " checked" }
            if !editable || choice.isDisabled { out += " disabled" }
            out += "> \(HTML.escape(choice.label))</label>\n"
        }
        return out + "</fieldset>\n"
    }

    /// The input type for a kind holding `text`, and its attributes; `nil`
    /// for a textarea. A value with a line break gets a textarea (a one-line
    /// input drops them), and text a date or time input cannot hold (a date
    /// stored as `04/07/2016`, input that did not parse) a plain text input:
    /// a browser sends either back changed, and a save would store it so.
    static func inputType(_ kind: FieldKind, holding text: String) -> (String, String)? {
        if WebText.hasLineBreak(text) { return nil }
        let (type, attributes) = inputType(kind)
        if !text.isEmpty, !browserHolds(type, text) { return ("text", "") }
        // A time with a fraction of a second: the input shows and steps milliseconds.
        if type == "time" || type == "datetime-local", text.contains(".") { return (type, " step=\"0.001\"") }
        return (type, attributes)
    }

    /// Whether a date, time or datetime-local input holds `text` as it is: a
    /// real day (not `2024-02-30` or `0000-00-00`) and a real time of day (not
    /// `25:61`) in the input's own layout. A browser blanks any other text,
    /// and an untouched save would store nothing in its place.
    static func browserHolds(_ type: String, _ text: String) -> Bool {
        func isDay(_ day: Substring) -> Bool {
            day.count == 10 && ISO8601.parseDate(String(day)).map(ISO8601.date) == String(day)
        }
        func isTime(_ time: Substring) -> Bool {
            // Seconds may have a fraction of one to three digits (`10:00:00.123`), as the input keeps.
            var time = time
            if let dot = time.firstIndex(of: ".") {
                let fraction = time[time.index(after: dot)...]
                guard (1...3).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
                      time[..<dot].count == 8 else { return false }
                time = time[..<dot]
            }
            let parts = time.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3,
                  parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return false }
            let numbers = parts.compactMap { Int($0) }
            return numbers[0] < 24 && numbers[1] < 60 && (numbers.count == 2 || numbers[2] < 60)
        }
        switch type {
        case "date": return isDay(text[...])
        case "time": return isTime(text[...])
        case "datetime-local":
            let halves = text.split(separator: "T", omittingEmptySubsequences: false)
            return halves.count == 2 && isDay(halves[0]) && isTime(halves[1])
        default: return true
        }
    }

    /// A bool field's control: a checkbox, or, for a value that is NULL in a
    /// field that may stay so, a select of nothing, yes and no (an unchecked
    /// box would be sent as no). `SubmittedForm`'s reading takes either.
    static func boolControl(_ field: Field, value: FieldValue, common: String, editable: Bool) -> String {
        let disabled = editable ? "" : " disabled"
        guard drawsBoolAsSelect(field, value: value) else {
            return "<input type=\"checkbox\" \(common) value=\"on\"\(value.boolValue == true ? " checked" : "")\(disabled)>"
        }
        return "<select \(common)\(disabled)><option value=\"\" selected></option><option value=\"on\">yes</option>"
            + "<option value=\"off\">no</option></select>"
    }

    /// Whether `boolControl` draws a select (its label goes above it, as a text input's does).
    static func drawsBoolAsSelect(_ field: Field, value: FieldValue) -> Bool {
        value == .null && !field.isRequired && !field.isNotNull
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
