import FoundationEssentials
import FormBasics
public import FormCore

/// A browser's post applied to a session opened for the request.
extension FormSession {
    /// Sets what the person changed in a posted form, and finds what someone
    /// else changed meanwhile.
    ///
    /// ```swift
    /// let session = try FormSession.open(form, key: key, backend: store)
    /// let result = session.apply(submitted: SubmittedForm(urlencoded: body))
    /// if result.isClean { outcome = try session.save() }
    /// ```
    ///
    /// The page carries the values it was drawn from (`_base`, written by
    /// `FormHTML`): a field the person left as it was is not set, so another
    /// writer's change to it stands; a field both changed, to different
    /// values, is a conflict and is left for the person to choose. Without
    /// `_base` (a script's post) every member is set. Each value goes in as
    /// typed (`set(_:input:)`), so text that does not parse is kept with its
    /// error; dates also in ISO 8601, as browsers' date inputs send them. An
    /// empty password means unchanged: the page never holds it.
    ///
    /// - parameter clearing: what an emptied field stores (the command's
    ///   `EmptyInputPolicy`: NULL where the column allows it); without it, what
    ///   the field reads empty input as. A field holding nothing stays as it is.
    /// - parameter clearingCell: the same for a cell of a group's row.
    public func apply(submitted body: SubmittedForm, clearing: ((Field) -> FieldValue)? = nil,
                      clearingCell: ((RowGroup, Field) -> FieldValue)? = nil) -> SubmissionResult {
        var result = SubmissionResult()
        // One input, one value: a member posted twice (a hand-made post: `val=a&val=b`, two `_base`s,
        // a row's cell) is refused, not read as its first. Only a set of boxes sends a name again.
        let repeated = Self.repeatedNames(body, form: form)
        if !repeated.isEmpty {
            for name in repeated {
                let label = PostedName.key(of: name).flatMap { form.field($0)?.label } ?? name
                result.refused.append(FieldRefusal(field: PostedName.key(of: name) ?? name, message: "\(label) was posted more than once: give one value"))
            }
            return result
        }
        let drawn = body.value("_base").flatMap(Self.decodeBase)
        // Read as none, every value posted would count as changed, and no conflict would be seen.
        if body.value("_base") != nil, drawn == nil {
            result.refused.append(FieldRefusal(field: "_base", message: "_base is not the JSON object of values the page was drawn with"))
            return result
        }
        let base = drawn?.mapValues { $0 ?? "" }
        // The fields the page was drawn from holding NULL: an input draws NULL and empty text alike.
        let drawnNull = Set(drawn?.filter { $0.value == nil }.keys ?? [:].keys)
        let offered: [String]
        if let listed = body.value("_fields") {
            guard let keys = WebJSON.decoded([String].self, from: listed) else {
                // Read as none, every value posted would be dropped without a word.
                result.refused.append(FieldRefusal(field: "_fields", message: "_fields is not a JSON list of field names"))
                return result
            }
            offered = keys
        } else {
            var seen = Set<String>()
            // A row's cells (`lines[2].item`) are the groups' (`applyRows`), not fields.
            let rowCell = { (name: String) in self.form.groups.contains { name.hasPrefix(PostedName.rows($0.key)) } }
            offered = body.members.compactMap { rowCell($0.name) ? nil : PostedName.key(of: $0.name) }
                .filter { seen.insert($0).inserted }
        }
        for key in offered {
            guard let field = form.field(key), field.holdsValue else {
                result.refused.append(FieldRefusal(field: key, message: "\(form.name) has no field \"\(key)\""))
                continue
            }
            // Listed but not sent: not given (a client posting some fields). Only a box and a set of
            // boxes say "none" by sending nothing; any other input is sent, empty or not.
            if field.kind != .bool, field.kind != .multichoice, body.value(PostedName.field(key)) == nil { continue }
            var mine = submittedValue(body, field)
            if field.isSecure {
                applySecure(field, mine, drawn: base?[key], clearing: clearing, into: &result)
                continue
            }
            let stored = WebText.of(pristine[key] ?? .null, in: field)
            // Browsers send a textarea's line breaks as CRLF, and a NUL as U+FFFD: the stored ones are kept.
            if mine.value == nil { mine.text = WebText.asStored(mine.text, stored: base?[key] ?? stored) }
            // Compared byte for byte: Swift's `==` takes a composed `é` for `e` + U+0301, a change (docs/fidelity.md).
            if let was = base?[key], was.hasSameUTF8(as: mine.text) { continue }
            if let why = whyNotEditable(key) {
                if !mine.text.hasSameUTF8(as: stored) { result.refused.append(FieldRefusal(field: key, message: "\(field.label) \(why)")) }
                continue
            }
            // Changed underneath: another text, or NULL become empty text (or back), which read alike.
            let storedNull = (pristine[key] ?? .null) == .null
            if let was = base?[key], !was.hasSameUTF8(as: stored) || drawnNull.contains(key) != storedNull,
               !mine.text.hasSameUTF8(as: stored) {
                // Empty text offered as `""`, which the choice posts back as empty text (`spelledValue`).
                let theirs = pristine[key] == .text("") ? #""""# : stored
                result.conflicts.append(WebConflict(field: key, base: was, mine: mine.text, theirs: theirs))
            }
            do {
                try set(field, mine, clearing: clearing)
            } catch {
                result.refused.append(FieldRefusal(field: key, message: "\(field.label): \(error)"))
            }
        }
        applyRows(body, clearing: clearingCell, into: &result)
        return result
    }

    /// A secure field's post: empty means unchanged (the page never holds
    /// the value); typed, it is set, and it conflicts with another writer's
    /// change since the page was drawn, which the page's digest of the value
    /// then tells (`SecureFieldDigest`). No value is put in the conflict:
    /// its page asks for the field again without drawing one.
    private func applySecure(_ field: Field, _ mine: Posted, drawn: String?, clearing: ((Field) -> FieldValue)?,
                             into result: inout SubmissionResult) {
        guard !mine.text.isEmpty else { return }
        if let why = whyNotEditable(field.key) {
            result.refused.append(FieldRefusal(field: field.key, message: "\(field.label) \(why)"))
            return
        }
        if let drawn, drawn != SecureFieldDigest.of(field.key, pristineValue(field.key), in: self) {
            result.conflicts.append(WebConflict(field: field.key, base: "", mine: "", theirs: ""))
        }
        do {
            try set(field, mine, clearing: clearing)
        } catch {
            result.refused.append(FieldRefusal(field: field.key, message: "\(field.label): \(error)"))
        }
    }

    /// A field's posted value: its text as the page shows values, and the value to set.
    struct Posted {
        var text: String
        var value: FieldValue?
    }

    /// The value posted for `field` under `name` (a row's cell is `lines[2].amount`).
    /// The names posted more than once but a multichoice field's or cell's (a set of boxes).
    static func repeatedNames(_ body: SubmittedForm, form: Form) -> [String] {
        var seen = Set<String>(), repeated: [String] = []
        let sets = Set((form.fields + form.groups.flatMap(\.fields)).filter { $0.kind == .multichoice }.map { PostedName.field($0.key) })
        for member in body.members where !seen.insert(member.name).inserted && !repeated.contains(member.name) {
            // A row's cell (`tags[2].colors`) by its field's posted name.
            if !sets.contains(PostedName.fieldName(member.name)) { repeated.append(member.name) }
        }
        return repeated
    }

    func submittedValue(_ body: SubmittedForm, _ field: Field, name: String? = nil) -> Posted {
        let name = name ?? PostedName.field(field.key)
        switch field.kind {
        case .bool:
            // A checkbox is sent as `on` or not at all; the select drawn for a NULL (`boolControl`) as '', `on` or `off`.
            // Any other text (the conflict page's `yes`/`no`, a script's `false`) is read as the field reads it
            // typed: anything but `off` was yes, so a `no` chosen on the conflict page was stored as yes.
            let value: FieldValue
            switch body.value(name) {
            case nil, "off": value = .bool(false)
            case "": value = .null
            case "on": value = .bool(true)
            case let text?:
                guard case .success(let parsed) = field.parse(text, in: form), parsed.boolValue != nil else {
                    return Posted(text: text, value: nil)
                }
                value = parsed
            }
            return Posted(text: WebText.of(value, in: field), value: value)
        case .multichoice:
            let chosen = body.values(name)
            let value: FieldValue = .list(chosen.map { text in field.choices.first { $0.valueText == text }?.value ?? .text(text) })
            return Posted(text: WebText.of(chosen.isEmpty ? .null : value, in: field), value: chosen.isEmpty ? .null : value)
        case .choice:
            let text = body.value(name) ?? ""
            guard let choice = field.choices.first(where: { $0.valueText == text }) else {
                return Posted(text: text, value: text.isEmpty ? .null : nil)
            }
            return Posted(text: WebText.of(choice.value, in: field), value: choice.value)
        default:
            return Posted(text: body.value(name) ?? "", value: nil)
        }
    }

    private func set(_ field: Field, _ posted: Posted, clearing: ((Field) -> FieldValue)?) throws {
        if let value = posted.value {
            try set(field.key, value: value)
            return
        }
        // As at the prompts and in the full-screen form: `\N` is NULL and `""` empty text,
        // whichever of the two an emptied input would store (`clearing`).
        if let spelled = Self.spelledValue(posted.text) {
            try set(field.key, value: spelled)
            return
        }
        if posted.text.isEmpty, let clearing {
            if value(field.key).isEmpty && inputs[field.key] == nil { return }
            try set(field.key, value: clearing(field))
            return
        }
        if [.date, .time, .datetime].contains(field.kind), !posted.text.isEmpty,
           (try? apply(values: [field.key: .text(posted.text)])) != nil {
            return
        }
        try set(field.key, input: posted.text)
    }

    /// The value a text input's `\N` (NULL) or `""` (empty text) spells, as
    /// at the prompts; `nil` for any other text, which is typed.
    static func spelledValue(_ text: String) -> FieldValue? {
        switch text {
        case #"\N"#: .null
        case #""""#: .text("")
        default: nil
        }
    }

    /// `_base`: each field's text as the page drew it, NULL as `null`.
    static func decodeBase(_ json: String) -> [String: String?]? {
        WebJSON.decoded([String: String?].self, from: json)
    }
}
