import FormCore

extension FormSession {
    /// Enters what a person gave for a field on the command line, at a
    /// prompt or in the editor document, with the rules every face shares:
    ///
    /// - NULL, empty text and bytes are set as themselves;
    /// - typed text that parses to nothing clears the field: no change when
    ///   it holds nothing already (NULL stays NULL, `''` stays `''`), else the
    ///   policy's cleared value (NULL where the column allows it);
    /// - a date in ISO-8601 (as exported) is taken as it is; other text is
    ///   parsed as typed.
    ///
    /// - returns: the free-mode save outcome, as `set` returns it; `nil` when nothing changed.
    /// - throws: `SessionError` for an unknown field or one the mode does not let change.
    @discardableResult
    func enter(_ key: String, _ input: FieldInput, policy: EmptyInputPolicy) throws -> SaveOutcome? {
        guard let field = form.field(key) else { return try set(key, input: input.text) }
        switch input {
        case .null:
            // A new record's NULL given as such is stored, not replaced by the column's default
            // (`CURRENT_TIMESTAMP`, an expression), as an import's explicit null is.
            return try self.key == nil ? set(key, value: .null, storedAs: .null) : set(key, value: .null)
        case .emptyText:
            return try set(key, value: .text(""))
        case .bytes(let data):
            return try set(key, value: .data(data))
        case .list(let values, let json):
            // As an import reads a list: a multichoice field's choices
            // (`RecordPipeline.parse`), a text field's JSON text; a number,
            // date or bool field refuses it.
            if field.kind == .multichoice, let slot = pipeline.slot(key) {
                return try set(key, value: pipeline.parse(.list(values), slot: slot).get())
            }
            return try set(key, value: field.storedList(.list(values), json: json, in: form))
        case .json(let given, _):
            // What a secure field is shown as (`new --json` of what `show` printed): no value.
            if field.isShownSecret(given) { return nil }
            // Text that reads as itself is written in the JSON's own class where the column
            // takes any (the storage's choice, `set(_:value:storedAs:)`); else it is typed,
            // a number as it was written (`12.50`) where the column does not keep the number.
            let text = field.readsHexAsBytes ? FieldInput.json(given).text : input.text
            // `""` is empty text in any column, as `FIELD:=""` and import take it: not "nothing typed".
            if text.isEmpty { return try enter(key, .emptyText, policy: policy) }
            // `:=1` over the REAL 1.0 a column of no type holds is the value held, as JSON writes it: no change.
            if given.isSameWholeNumber(as: pristineValue(key)) { return try set(key, value: pristineValue(key)) }
            // JSON says its class: in a BLOB or untyped column `:=42` is the number and `:="CAFE"` text, not hex typed.
            guard field.readsHexAsBytes || field.parseInput(text, in: form) == .success(.text(text)) else {
                return try enter(key, .typed(text), policy: policy)
            }
            // In a BLOB column the JSON's own value is stored (`:=42` the number, as an import stores it).
            return try set(key, value: field.readsHexAsBytes ? given : .text(text), storedAs: given)
        case .typed(let text):
            switch field.parseInput(text, in: form) {
            case .success(let value) where value.isEmpty && !value.isData:
                if self.value(key).isEmpty && inputs[key] == nil {
                    // Nothing to clear; a field the mode does not let change is still refused.
                    if whyNotEditable(key) != nil { return try set(key, input: text) }
                    return nil
                }
                // Typed and rubbed out again: a stored field holding nothing gets its own nothing back.
                let stored = pristineValue(key)
                if self.key != nil && stored.isEmpty && !stored.isData { return try set(key, value: stored) }
                return try set(key, value: policy.cleared(field))
            case .success(let value) where field.isDateLike && field.parse(text, in: form).isFailure:
                if case .date(let date) = value {
                    let stored = pristineValue(key)
                    // The stored date typed as it holds it (seven digits of a second): no change.
                    if case .date = stored, field.keepingStoredDate(value, stored: stored, typed: false) == stored {
                        return try set(key, value: stored)
                    }
                    // Refused as a value that does not parse is: kept as typed, with why, never thrown
                    // (the full-screen form sets a field on every key).
                    if let error = field.whatWouldBeCutOff(date, given: text, stored: stored) {
                        try keep(key, input: text, refusedWith: error)
                        return nil
                    }
                }
                return try set(key, value: value)
            default:
                return try set(key, input: text)
            }
        }
    }
}

extension FormSession {
    /// Enters what a person gave for a cell of a repeating group's row (at a
    /// prompt, in the full-screen form, on a web page), by the rules `enter`
    /// follows for a field: NULL and empty text as themselves (`\N`, `""`),
    /// typed text that parses to nothing clears the cell (no change where it
    /// holds nothing; else the policy's cleared value for the row's table),
    /// other text parsed as typed.
    ///
    /// - returns: the free-mode save outcome, as `setRow` returns it.
    @discardableResult
    func enterRow(_ group: String, _ id: String, _ key: String, _ input: FieldInput,
                  policy: EmptyInputPolicy) throws -> SaveOutcome? {
        if let value = input.givenValue { return try setRow(group, id, key, value: value) }
        let text = input.text
        guard let field = form.group(group)?.field(key),
              case .success(let value) = field.parse(text, in: form), value.isEmpty, !value.isData else {
            return try setRow(group, id, key, input: text)
        }
        // Nothing to clear: the cell keeps its own nothing (NULL stays NULL, `''` stays `''`).
        let now = row(group, id)?[key] ?? .null
        if now.isEmpty { return try setRow(group, id, key, value: now) }
        return try setRow(group, id, key, value: policy.cleared(field, inGroup: group))
    }
}

extension Field {
    /// What a field given a JSON list stores, as an import does: a text
    /// field its JSON text (`json`, `list.jsonLiteral` by default); any other
    /// field the list, which a multichoice field takes and the rest refuse.
    func storedList(_ list: FieldValue, json: String? = nil, in form: Form) -> FieldValue {
        guard case .list = list, kind != .multichoice, kind != .choice else { return list }
        let text = FieldValue.text(json ?? list.jsonLiteral)
        return (try? coerce(text, messages: form.messages)) != nil ? text : list
    }
}

extension FieldValue {
    fileprivate var isData: Bool {
        if case .data = self { return true }
        return false
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
