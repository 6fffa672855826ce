public import FormCore

/// A page of records as a table: one row per record, its first column a link
/// to the record (none for a view without a key), secure values masked
/// (Datasette's table view, smaller).
public struct RecordTableHTML {
    let form: Form
    let records: [StoredRecord]
    let link: (RecordKey) -> String
    /// How a record's key reads in its link: as the command takes it typed
    /// (a `,` or `=` inside a value escaped), else `RecordKey.description`.
    public var keyText: (RecordKey) -> String = { $0.description }
    /// Labels of foreign-key values, by field key then value: shown beside the key.
    public var labels: [String: [FieldValue: String]] = [:]

    /// - parameter link: the address of a record's page.
    public init(form: Form, records: [StoredRecord], link: @escaping (RecordKey) -> String) {
        self.form = form
        self.records = records
        self.link = link
    }

    /// The fields shown as columns: every one stored and holding a value. The
    /// table scrolls sideways where they are many (the first eight alone
    /// were shown: a 16-field form's references and notes never were).
    var columns: [Field] {
        form.fields.filter { $0.holdsValue && $0.isStored }
    }

    public func render(sortHref: (String, Bool) -> String = { _, _ in "" }) -> String {
        guard !records.isEmpty else { return "<p class=\"empty\">No records.</p>\n" }
        // A view without a key names no record of its own: its rows are shown, not linked.
        let keyed = records.contains { !$0.key.columns.isEmpty }
        var out = "<div class=\"table-scroll\"><table class=\"records\">\n<thead><tr>"
        if keyed { out += "<th scope=\"col\">Key</th>" }
        for field in columns {
            // A secret is not sorted by: the order would tell it.
            let href = field.isSecure ? "" : sortHref(field.key, false)
            out += href.isEmpty ? "<th scope=\"col\">\(HTML.escape(field.label))</th>"
                : "<th scope=\"col\"><a href=\"\(HTML.escape(href))\">\(HTML.escape(field.label))</a></th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for record in records {
            out += "<tr>"
            if keyed {
                out += "<th scope=\"row\"><a href=\"\(HTML.escape(link(record.key)))\">\(HTML.escape(keyText(record.key)))</a></th>"
            }
            for field in columns {
                let value = record.values[field.key] ?? .null
                let text = field.isSecure ? (value.isEmpty ? "" : "••••••") : WebText.shown(value, in: field)
                if let label = labels[field.key]?[value] {
                    out += "<td>\(HTML.escape(text)) <span class=\"reference-label\">\(HTML.escape(label))</span></td>"
                } else {
                    out += Self.cell(value, text: text)
                }
            }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table></div>\n"
    }

    /// A cell holding a value's text, empty text apart from NULL, as `list`
    /// writes them: empty text a dim `""`, NULL an empty cell. The one place
    /// a table of values draws the two, so the list and a record's history agree.
    static func cell(_ value: FieldValue, text: String) -> String {
        value == .text("") ? "<td class=\"empty-text\">\"\"</td>" : "<td>\(HTML.escape(text))</td>"
    }
}
