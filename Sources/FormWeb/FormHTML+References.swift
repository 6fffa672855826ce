import FormCore

/// A foreign-key field as a picker: a `<select>` of the referenced rows when
/// they are few, else a text input for the key with a `<datalist>` the page's
/// script fills from the search route as the person types (without the
/// script, the key is typed). The current row's label is shown beside it.
extension FormHTML {
    /// The picker of a field (`id` its input's, `value` its value) or of a
    /// row's cell; `list` names the `<datalist>` of a searched one.
    func reference(_ reference: WebReference, id: String, list: String, value: FieldValue, common: String, text: String,
                   editable: Bool) -> String {
        var out: String
        if let choices = reference.choices {
            out = "<select \(common)\(editable ? "" : " disabled")>\n<option value=\"\"></option>\n"
            var chosen = false
            for choice in choices {
                let selected = WebText.isChosen(choice, in: value)
                chosen = chosen || selected
                out += "<option value=\"\(HTML.escape(choice.valueText))\"\(selected ? " selected" : "")>"
                out += HTML.escape(choice.label == choice.valueText ? choice.label : "\(choice.label) (\(choice.valueText))") + "</option>\n"
            }
            // A value that is no row's key stays what it is, so the error beside it makes sense.
            if !chosen && !text.isEmpty {
                out += "<option value=\"\(HTML.escape(text))\" selected>\(HTML.escape(text))</option>\n"
            }
            out += "</select>\n"
        } else {
            out = "<input type=\"text\" \(common) value=\"\(HTML.escape(text))\" list=\"\(list)\" autocomplete=\"off\""
            if let href = reference.searchHref { out += " data-choices=\"\(HTML.escape(href))\"" }
            out += editable ? ">\n" : " readonly>\n"
            out += "<datalist id=\"\(list)\">"
            if let label = reference.label { out += "<option value=\"\(HTML.escape(text))\">\(HTML.escape(label))</option>" }
            out += "</datalist>\n"
        }
        if let label = reference.label {
            out += "<span class=\"reference-label\" id=\"\(id)-ref\">\(HTML.escape(label))</span>\n"
        }
        return out
    }
}
