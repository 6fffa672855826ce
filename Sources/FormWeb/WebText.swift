import FormBasics
import FormCore
import FoundationEssentials

/// The text of a field's value in a browser's input: the field's own format,
/// except where the input type has a fixed one (`date`, `time`,
/// `datetime-local` take ISO 8601, whatever the field's input format is).
enum WebText {
    /// What a browser posted for text stored as `stored`, as stored where
    /// the browser changed only what it always changes:
    /// - a textarea's line breaks come back as CRLF (a lone CR or LF too), so
    ///   text differing from the stored text only in them is the stored text,
    ///   and other text keeps LF unless the stored text had CRLF;
    /// - a NUL, which HTML cannot hold, was drawn and comes back as U+FFFD
    ///   (`HTML.escape`), so the stored NUL stands when the rest is the same.
    static func asStored(_ posted: String, stored: String) -> String {
        let hasCR = posted.unicodeScalars.contains { $0 == "\r" }
        guard hasCR || posted.unicodeScalars.contains("\u{FFFD}") else { return posted }
        let lines = { (text: String) in text.replacing("\r\n", with: "\n").replacing("\r", with: "\n") }
        if lines(posted) == lines(stored.replacing("\0", with: "\u{FFFD}")) { return stored }
        guard hasCR else { return posted }
        return stored.contains("\r\n") ? posted : lines(posted)
    }

    /// Whether text holds a line break, CRLF included (Swift reads `\r\n` as one character, not `\n`).
    static func hasLineBreak(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }

    static func of(_ value: FieldValue, in field: Field) -> String {
        guard case .date(let date) = value else { return field.format(value) }
        switch field.kind {
        case .date: return ISO8601.date(date)
        case .time: return String(ISO8601.time(date).prefix(5)) + secondsSuffix(date)
        case .datetime: return ISO8601.date(date) + "T" + String(ISO8601.time(date).prefix(5)) + secondsSuffix(date)
        default: return field.format(value)
        }
    }

    /// A value as a page shows it to be read (a list's cell): as `of(_:in:)`
    /// writes it into an input, but a date and time with a space, not the
    /// `T` a date-time input takes (`2021-01-01 11:30`, as `show` writes it).
    static func shown(_ value: FieldValue, in field: Field) -> String {
        let text = of(value, in: field)
        guard case .date = value, field.kind == .datetime else { return text }
        return text.replacing("T", with: " ", maxReplacements: 1)
    }

    /// `:ss` when the time has seconds or a fraction of one, and the fraction
    /// after them (`.123`; `.123456` to the microsecond), which a browser's
    /// time input shows to the millisecond: drawn without it, an edit of the
    /// hour stored the time without its fraction.
    private static func secondsSuffix(_ date: Date) -> String {
        let seconds = ISO8601.time(date).suffix(2)
        let whole = date.timeIntervalSince1970.rounded(.down)
        let fraction = ISO8601.fractionText(date.timeIntervalSince1970 - whole)
        return seconds == "00" && fraction.isEmpty ? "" : ":" + seconds + fraction
    }

    /// What the session shows for a field: typed text that did not parse, else its value.
    static func of(_ key: String, in session: FormSession) -> String {
        guard let field = session.form.field(key) else { return "" }
        if field.isSecure { return "" }
        if let raw = session.inputs[key] { return raw }
        return of(session.value(key), in: field)
    }

    /// Whether the value is a field's choice (by its value text).
    static func isChosen(_ choice: Choice, in value: FieldValue) -> Bool {
        if let list = value.listValue { return list.contains { $0 == choice.value || FieldValue.text(choice.valueText) == $0 } }
        return value == choice.value
    }
}

extension WebText {
    /// What a row's cell shows: typed text that did not parse, else its value
    /// (a date in ISO 8601 for a date input).
    static func of(row id: String, _ field: Field, group: String, in session: FormSession) -> String {
        guard !field.isSecure, let row = session.row(group, id) else { return "" }
        let shown = session.rowText(group, id, field.key)
        // `rowText` is the raw input when it did not parse, else the formatted value.
        if shown != field.format(row[field.key]) { return shown }
        return of(row[field.key], in: field)
    }
}
