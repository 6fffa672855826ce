import FormBasics
import FormCore
import FoundationEssentials

/// How the edit loops show a field's value to a person: formatted through the
/// field's transformers, secrets masked, BLOBs by size, control characters escaped.
enum FieldDisplay {
    /// A model value as shown in a summary, a record listing or a conflict:
    /// NULL and empty text told apart, as `set` prints a change (`\N` and
    /// `""` typed at a prompt are different changes).
    static func text(_ value: FieldValue, of field: Field, forScreen: Bool = false) -> String {
        if value == .null { return "(null)" }
        if value.isEmpty { return "(empty)" }
        if field.isSecure { return ValueText.mask }
        if case .data(let data) = value { return ValueText.blobSize(data.count) }
        return neutralised(field.format(value), forScreen: forScreen)
    }

    /// What the session shows for a field now: its raw input when that did not parse.
    /// `forScreen`: for the full-screen form, which draws line breaks and tabs as signs.
    static func current(_ key: String, in session: FormSession, forScreen: Bool = false) -> String {
        guard let field = session.form.field(key) else { return "" }
        if let raw = session.inputs[key] {
            return field.isSecure ? ValueText.mask : neutralised(raw, forScreen: forScreen)
        }
        return text(session.value(key), of: field, forScreen: forScreen)
    }

    private static func neutralised(_ text: String, forScreen: Bool) -> String {
        forScreen ? TerminalText.neutralisedForScreen(text) : TerminalText.neutralised(text)
    }

    /// What an undo or redo step set, as the message line says it: a field
    /// with its value now (`Name: Ann`), a group by its title (`Lines`).
    static func step(_ keys: [String], in session: FormSession) -> String {
        keys.map { key in
            if session.form.field(key) == nil, session.form.group(key) != nil {
                return groupTitle(key, in: session.form)
            }
            return "\(label(key, in: session.form)): \(current(key, in: session))"
        }.joined(separator: ", ")
    }

    /// The field's label, as messages name it.
    /// A group's row or cell path reads as a person says it: `lines[#6]` as
    /// `Lines row 6`, `lines[10].amount` as `Lines row 10 (Amount)`.
    static func label(_ key: String, in form: Form) -> String {
        if let field = form.field(key) { return field.label }
        guard let open = key.firstIndex(of: "["), let close = key.lastIndex(of: "]"), open < close,
              let group = form.group(String(key[..<open])) else { return key }
        var row = String(key[key.index(after: open)..<close])
        if row.hasPrefix("#") { row.removeFirst() }
        let rest = key[key.index(after: close)...]
        let cell = rest.hasPrefix(".") ? String(rest.dropFirst()) : nil
        let title = groupTitle(group.key, in: form) + " row " + row
        guard let cell else { return title }
        return title + " (" + (group.field(cell)?.label ?? cell) + ")"
    }

    /// The field as a message names it beside its key (`Born (born)`); the
    /// key alone where the label is the key (an inferred form's `dt`).
    static func named(_ field: Field) -> String {
        field.label == field.key ? field.key : "\(field.label) (\(field.key))"
    }

    /// A field's error with its field named once: `Born (born) is not a valid
    /// date`, `dt holds a date and time: …`, `Born (born): 31/02 is no day`.
    static func error(_ message: String, of field: Field) -> String {
        let named = named(field)
        if message.hasPrefix(named) { return message }
        if message.hasPrefix(field.label + " ") { return named + message.dropFirst(field.label.count) }
        return "\(named): \(message)"
    }

    /// A repeating group's title (its section's), as messages name it.
    static func groupTitle(_ group: String, in form: Form) -> String {
        form.sections.first { $0.group?.key == group }?.title ?? group
    }

    /// `Name: was Ann, yours Annie, theirs Anne` for a conflict.
    /// A stored row's cell by its path (`lines[10].amount`): `lines[10].amount:
    /// was 3, yours 3.75, theirs 9`, each value as its row field shows it.
    static func conflict(_ conflict: FieldConflict, in form: Form) -> String {
        if let field = form.field(conflict.field) {
            return "\(field.label): was \(compared(conflict.base, of: field)), yours \(compared(conflict.mine, of: field)), "
                + "theirs \(compared(conflict.theirs, of: field))"
        }
        let cell = rowField(conflict.field, in: form)
        let shown = { (value: FieldValue) in
            if case .data(let data) = value, !(cell?.isSecure ?? false) { return bytes(data) }
            return cell.map { text(value, of: $0) } ?? (value.isEmpty ? ValueText.emptyText : ValueText.text(value, kind: nil, blobsBySize: true))
        }
        return "\(conflict.field): was \(shown(conflict.base)), yours \(shown(conflict.mine)), theirs \(shown(conflict.theirs))"
    }

    /// A value of a conflict: bytes by their hex, where a size alone would
    /// not tell two sides of the same size apart; else as `text` shows it.
    private static func compared(_ value: FieldValue, of field: Field) -> String {
        if case .data(let data) = value, !field.isSecure { return bytes(data) }
        return text(value, of: field)
    }

    /// `x'00FF'` for a few bytes; for more, the first 16 in hex and the size.
    private static func bytes(_ data: Data) -> String {
        data.count <= 16 ? data.blobLiteral : "x'\(data.prefix(16).hexadecimal(uppercase: true))…' (\(ValueText.blobSize(data.count)))"
    }

    /// The row field a cell's path names (`lines[10].amount`: the group's `amount`).
    static func rowField(_ path: String, in form: Form) -> Field? {
        for group in form.groups where path.hasPrefix(group.key + "[") {
            guard let close = path.lastIndex(of: "]"), path[close...].hasPrefix("].") else { continue }
            return group.field(String(path[path.index(close, offsetBy: 2)...]))
        }
        return nil
    }
}

extension FormSession {
    /// A field's text as a prompt shows it: empty text as `""`, apart from NULL.
    func shownText(_ key: String) -> String {
        inputs[key] == nil && value(key) == .text("") ? ValueText.emptyText : text(key)
    }

    /// A row cell's text as a prompt shows it: empty text as `""`, apart from NULL.
    func shownRowText(_ group: String, _ id: String, _ field: String) -> String {
        let text = rowText(group, id, field)
        return text.isEmpty && row(group, id)?[field] == .text("") ? ValueText.emptyText : text
    }
}
