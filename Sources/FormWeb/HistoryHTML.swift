import FormBasics
public import FormCore
import FoundationEssentials

/// A record's history as a table: each saved change's fields, when, who,
/// through what, and the value before and after. A secure field is listed as
/// changed, never with a value (the store keeps none).
///
/// ```swift
/// let html = HistoryHTML(form: form, changes: try store.history(form, key: key)).render()
/// ```
public struct HistoryHTML {
    let form: Form
    let changes: [RecordChange]
    /// Why there are no changes, where that is not that none were saved (no history kept yet).
    let whyEmpty: String?

    public init(form: Form, changes: [RecordChange], whyEmpty: String? = nil) {
        self.form = form
        self.changes = changes
        self.whyEmpty = whyEmpty
    }

    /// Newest first: the question is usually "who changed this last".
    public func render() -> String {
        guard !changes.isEmpty else {
            return "<p class=\"empty\">\(HTML.escape(whyEmpty.map { $0.prefix(1).uppercased() + $0.dropFirst() + "." } ?? "No saved changes recorded."))</p>\n"
        }
        var out = "<div class=\"table-scroll\"><table class=\"records history\">\n"
        out += "<thead><tr><th scope=\"col\">When (UTC)</th><th scope=\"col\">Who</th><th scope=\"col\">Through</th>"
        out += "<th scope=\"col\">Field</th><th scope=\"col\">Before</th><th scope=\"col\">After</th></tr></thead>\n<tbody>\n"
        for change in changes.reversed() {
            let when = ISO8601.date(change.changedAt) + " " + ISO8601.time(change.changedAt)
            for (index, field) in change.fields.enumerated() {
                out += "<tr id=\"change-\(change.id)-\(index)\">"
                if index == 0 {
                    let span = change.fields.count > 1 ? " rowspan=\"\(change.fields.count)\"" : ""
                    out += "<td\(span)>\(HTML.escape(when))</td><td\(span)>\(HTML.escape(change.attribution.actor ?? "—"))</td>"
                    out += "<td\(span)>\(HTML.escape(change.attribution.via.rawValue))</td>"
                }
                out += "<th scope=\"row\">\(HTML.escape(form.field(field.field)?.label ?? field.field))</th>"
                if field.isSecure {
                    out += "<td colspan=\"2\" class=\"secure\">changed (a secure field: no values kept)</td>"
                } else {
                    out += cell(field.old, field.field) + cell(field.new, field.field)
                }
                out += "</tr>\n"
            }
        }
        return out + "</tbody>\n</table></div>\n"
    }

    /// A value before or after, drawn as the records list draws it
    /// (`RecordTableHTML.cell`): NULL (or no value yet) an empty cell, empty
    /// text a dim `""`, so a NULL become `''` shows as the change it is.
    private func cell(_ value: FieldValue?, _ key: String) -> String {
        let value = value ?? .null
        let text = form.field(key).map { WebText.of(value, in: $0) } ?? Choice.defaultLabel(for: value)
        return RecordTableHTML.cell(value, text: text)
    }
}
