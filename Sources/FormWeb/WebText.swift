import FormBasics
import FormCore
import FoundationEssentials

/// The text of a field's value in a browser's input: the field's own format,
/// except where the input type has a fixed one (`date`, `time`,
/// `datetime-local` take ISO 8601, whatever the field's input format is).
enum WebText {
    /// What a browser posted for text stored as `stored`, as stored where
    /// the browser changed only what it always changes:
    /// - a textarea's line breaks come back as CRLF (a lone CR or LF too):
    ///   each line the person left as it was keeps its stored line break
    ///   and text (`storedLineBreaks`), and a line changed or added takes
    ///   the break of the stored line it replaced, or of the line before;
    /// - a NUL, which HTML cannot hold, was drawn and comes back as U+FFFD
    ///   (`HTML.escape`), so the stored NUL stands where its line is the same.
    static func asStored(_ posted: String, stored: String) -> String {
        guard posted.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\u{FFFD}" }) else { return posted }
        return storedLineBreaks(posted, stored: stored)
    }

    /// A line of text and the break that ends it (`""` for the last).
    private struct Line {
        var text: Substring.UnicodeScalarView
        var end: String
    }

    /// `text`'s lines, each with its own break: CRLF, LF or a lone CR.
    private static func lines(_ text: String) -> [Line] {
        var lines: [Line] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard scalar == "\n" || scalar == "\r" else { index = scalars.index(after: index); continue }
            var next = scalars.index(after: index)
            if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
            lines.append(Line(text: Substring(scalars[start..<index]).unicodeScalars, end: String(scalars[index..<next])))
            start = next
            index = next
        }
        lines.append(Line(text: Substring(scalars[start...]).unicodeScalars, end: ""))
        return lines
    }

    /// The posted lines matched to the stored ones from the start and from
    /// the end: a line the same as stored (a NUL read as U+FFFD) is written
    /// as stored, with its stored break; the lines between take the break of
    /// the first stored line they replace, else of the line before them,
    /// else the first break the stored text has, else LF.
    private static func storedLineBreaks(_ posted: String, stored: String) -> String {
        let mine = lines(posted), theirs = lines(stored)
        let same = { (a: Line, b: Line) in
            a.text.elementsEqual(b.text) { $0 == $1 || ($0 == "\u{FFFD}" && $1 == "\0") }
        }
        var head = 0
        while head < min(mine.count, theirs.count), same(mine[head], theirs[head]) { head += 1 }
        var tail = 0
        while tail < min(mine.count, theirs.count) - head,
              same(mine[mine.count - 1 - tail], theirs[theirs.count - 1 - tail]) { tail += 1 }
        let fallback = theirs.first { !$0.end.isEmpty }?.end ?? "\n"
        let changedBreak = head < theirs.count - tail && !theirs[head].end.isEmpty ? theirs[head].end
            : theirs[..<head].last { !$0.end.isEmpty }?.end ?? fallback
        var out = String.UnicodeScalarView()
        for (index, line) in mine.enumerated() {
            let kept = index < head ? theirs[index]
                : index >= mine.count - tail ? theirs[theirs.count - (mine.count - index)] : nil
            if let kept {
                out.append(contentsOf: kept.text)
                // The last posted line ends the text, whatever line of the stored text it matched.
                if index < mine.count - 1 { out.append(contentsOf: (kept.end.isEmpty ? changedBreak : kept.end).unicodeScalars) }
            } else {
                out.append(contentsOf: line.text)
                if index < mine.count - 1 { out.append(contentsOf: changedBreak.unicodeScalars) }
            }
        }
        return String(out)
    }

    /// Whether text holds a line break, CRLF included (Swift reads `\r\n` as one character, not `\n`).
    static func hasLineBreak(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }

    static func of(_ value: FieldValue, in field: Field) -> String {
        guard case .date(let date) = value else { return field.format(value) }
        // Taken apart first: the second written to the millisecond rounded `56.999999` up to `57`.
        let (whole, fraction) = ISO8601.wholeSecondAndFraction(date)
        switch field.kind {
        case .date: return ISO8601.date(date)
        case .time: return String(ISO8601.time(whole).prefix(5)) + secondsSuffix(whole, fraction)
        case .datetime: return ISO8601.date(whole) + "T" + String(ISO8601.time(whole).prefix(5)) + secondsSuffix(whole, fraction)
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

    /// `:ss` of a whole second when the time has seconds or a fraction of
    /// one, and the fraction (`ISO8601.fractionText`) after them (`.123`; `.123456` to the microsecond), which a browser's
    /// time input shows to the millisecond: drawn without it, an edit of the
    /// hour stored the time without its fraction.
    private static func secondsSuffix(_ whole: Date, _ fraction: String) -> String {
        let seconds = ISO8601.time(whole).suffix(2)
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
