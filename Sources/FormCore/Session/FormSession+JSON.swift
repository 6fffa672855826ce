import FormBasics
public import FoundationEssentials

/// The JSON door: a request body applied to a session in one call.
extension FormSession {
    /// Sets the fields a JSON object names, all or none.
    ///
    /// ```swift
    /// try session.apply(json: Data(#"{"title": "Printer jam", "priority": 2, "due": "2026-12-01"}"#.utf8))
    /// switch try session.save() { … }
    /// ```
    ///
    /// Values are read in their machine forms: numbers as numbers, `true` and
    /// `false`, `null` for no value, arrays for multichoice fields, dates and
    /// times as ISO 8601 text (`2026-12-01`, `2026-12-01T09:30:00Z`, SQLite's
    /// `2026-12-01 09:30:00`, `09:30`) or in the field's own input format; a
    /// date field refuses a time of day and a time field a day, rather than
    /// cut them off. Each value
    /// then runs through the field's transforms and kind check, as `set` does;
    /// a choice is named by its value or label, never its position. Visibility
    /// and `disabledWhen` are judged on the values the body leaves behind, so a
    /// body may set a field together with the one that shows it.
    ///
    /// Nothing is dropped in silence: a key that names no field, a hidden,
    /// disabled, read-only or display-only field, and a value the field cannot
    /// hold are each an error, and then nothing is set. Rules (required,
    /// length, range …) are not errors here: `save()` reports them.
    ///
    /// - throws: `JSONBodyError` with every problem found (the session is unchanged).
    public func apply(json body: Data) throws(JSONBodyError) {
        let node: JSONNode
        // A number a double would round (or an integer past Int64) is refused, as the command refuses it.
        do { node = try JSONReader.parse(Array(body), integersMustFit: true, keepsDocumentText: true) } catch {
            let exact = error.reason == "number not exact" || error.reason.hasPrefix("integer out of range")
                || error.reason == "number out of range"
            throw .malformed("\(exact ? "a number in the body cannot be held exactly" : "the body is not JSON"): "
                + "line \(error.line), column \(error.column): \(error.message)")
        }
        guard case .object(let members) = node else {
            throw .malformed("the body must be a JSON object of field values, not \(node.typeName)")
        }
        // A group's rows come as an array of objects: planned (and checked) first, applied after the fields.
        let plans = try groupPlans(members.filter { form.group($0.key) != nil })
        // A JSON object (or an array holding one) is a document, which only text keeps, as its JSON text:
        // a list field split its text at the commas, a choice or a number took it as text.
        try apply(members.filter { form.group($0.key) == nil }.map { member in
            (member.key, member.fieldValue, member.value.isDocument)
        })
        try apply(plans)
    }

    /// Sets fields from machine values, all or none, as `apply(json:)` does
    /// (a `.text` for a date field may be ISO 8601 text).
    ///
    /// - throws: `JSONBodyError` with every problem found (the session is unchanged).
    public func apply(values: [String: FieldValue]) throws(JSONBodyError) {
        let position = { (key: String) in self.fields.firstIndex { $0.key == key } ?? .max }
        try apply(values.sorted { (position($0.key), $0.key) < (position($1.key), $1.key) }.map { ($0.key, $0.value, false) })
    }

    /// The members in order; `nil` for a value no field can hold (bytes that are not base64);
    /// `isDocument`: the value is a JSON object's text (or an array's holding one), which only text keeps.
    private func apply(_ members: [(key: String, value: FieldValue?, isDocument: Bool)]) throws(JSONBodyError) {
        var errors: [FieldError] = []
        var taken: [(field: Field, value: FieldValue, given: FieldValue?)] = []
        for member in members {
            guard let field = field(member.key) else {
                // A record read names its own key, which a spec may give no field (`id`): sent back, no change.
                if let stored = key?[member.key], let given = member.value,
                   given == stored || given.isSameWholeNumber(as: stored) { continue }
                errors.append(FieldError(field: member.key, code: "unknownField",
                                         message: "\(form.name) has no field \(member.key.quoted)"))
                continue
            }
            if member.isDocument && !field.kind.holdsText {
                errors.append(cannotHold(field, "a JSON object"))
                continue
            }
            if isAsItIs(member.value, field) || field.isShownSecret(member.value) { continue }
            if let error = whyNeverSettable(field) {
                errors.append(error)
                continue
            }
            switch machineValue(member.value, for: field, new: key == nil) {
            case .success(let value): taken.append((field, value, member.value))
            case .failure(let error): errors.append(error)
            }
        }
        var after = current
        for (field, value, _) in taken { after[field.key] = value }
        for (field, _, _) in taken {
            if let error = whyNotSettable(field, values: after) { errors.append(error) }
        }
        guard errors.isEmpty else { throw JSONBodyError(errors: errors) }
        for (field, value, given) in taken {
            do {
                // Text a JSON string or number became is written in the JSON's own class
                // where the column takes any, as an import writes it (`"81"` text, `81` a number).
                // A new record's date is written as it came, too: an epoch, a Julian day, `2024-3-5`.
                // A new record's `null` is stored as given, not replaced by the column's default, as an import's.
                if let given, given.isTextOrNumber && keepsGivenForm(value) || given == .null && key == nil {
                    try set(field.key, value: value, storedAs: given)
                } else {
                    try set(field.key, value: value)
                }
            } catch let error as FieldError {
                errors.append(error)
            } catch {
                errors.append(FieldError(field: field.key, code: "notEditable", message: "\(error)"))
            }
        }
        if !errors.isEmpty { throw JSONBodyError(errors: errors) }
    }

    /// Whether a value set from JSON is written in the form it was given:
    /// text (`"81"` stays text, `81` a number where the column takes any),
    /// and a new record's date or bool (as an import writes it: `2024-3-5`, `2`).
    private func keepsGivenForm(_ value: FieldValue) -> Bool {
        switch value {
        case .text: true
        case .date, .bool: key == nil
        default: false
        }
    }

    /// Whether `given` is `field`'s value as it already is: a record read and
    /// sent back is no change, and is neither checked nor refused (its
    /// read-only key, a date kept as `04/07/2016` that breaks the field's
    /// rules, a date the JSON showed with less than the column holds).
    private func isAsItIs(_ given: FieldValue?, _ field: Field) -> Bool {
        guard let given, !hasInputs || inputs[field.key] == nil else { return false }
        return isSame(given, as: value(field.key), stored: pristineValue(field.key), field: field)
    }

    /// Whether `given` is `now`, the value of `field` (a field's, or a row's
    /// cell whose stored value is `stored`), written as JSON writes it.
    func isSame(_ given: FieldValue, as now: FieldValue, stored: FieldValue, field: Field, group: String? = nil) -> Bool {
        if given == now { return true }
        if case .text(let name) = given, case .double(let d) = now, ValueBytes.nonFiniteName(d) == name { return true }
        // A whole REAL JSON wrote as `1` (or `-0.0` as `-0`), or an INTEGER given as `1.0`: the same number,
        // sent back. (A column of no type holds either class; set from it, a REAL 1.0 became the INTEGER 1.)
        if given.isSameWholeNumber(as: now) { return true }
        // A bool's stored `2` or `-1` given back (an export's) is the yes it reads as.
        if field.kind == .bool, case .int(let number) = given, case .bool(let yes) = now, (number != 0) == yes { return true }
        // Only a date may be the same value written another way: compared as read, whatever
        // it holds beyond the field (a DATE's time of day, as stored, is no change given back).
        guard field.kind.isDateLike else { return false }
        let value: FieldValue
        if let date = storedDate(given, for: field, group: group) {
            value = .date(date)
        } else if case .text(let text) = given, let date = ISO8601.parse(text) {
            value = .date(date)
        } else if case .success(let read) = machineValue(given, for: field, group: group, stored: stored) {
            value = read
        } else {
            return false
        }
        return field.keepingStoredDate(value, stored: stored, typed: false) == now
    }

    /// A member's value for `field`, through the field's transforms and kind check.
    ///
    /// A date may come in a form its column stores (`storedDate(_:for:group:)`:
    /// an epoch, a Julian day, `2024-3-5`), as an export writes it. Text is
    /// refused where it holds more than the field keeps (a time of day for a
    /// date), unless it is a new record's (or row's) `.date`, which keeps its
    /// text as it arrived, as an import's does.
    ///
    /// `stored` is the value the field's column holds (a row's cell, for a
    /// row field of `group`); by default the record's.
    func machineValue(_ given: FieldValue?, for field: Field, group: String? = nil, new: Bool = false,
                      stored: FieldValue? = nil) -> Result<FieldValue, FieldError> {
        let plain: FieldValue
        let stored = stored ?? (group == nil ? pristineValue(field.key) : .null)
        // A new record's DATE keeps its text as it came, time of day and all; else what the field
        // would not hold of a date given as text is refused.
        func cutOff(_ date: Date, _ text: String) -> FieldError? {
            new && field.kind == .date ? nil : field.whatWouldBeCutOff(date, given: text, stored: stored)
        }
        if field.kind.isDateLike, let given, let date = storedDate(given, for: field, group: group) {
            // A number too: a Julian day's fraction is a time of day, which a date does not hold.
            if let error = cutOff(date, given.textValue ?? FieldValue.plainText(given)) { return .failure(error) }
            return .success(.date(date))
        }
        switch given {
        case .some(.text(let text)) where text.isEmpty:
            // Empty text is a value in any column, as `FIELD:=""` and import store it; not "nothing typed".
            return .success(.text(""))
        case .some(.text(let text)) where field.kind == .date || field.kind == .time || field.kind == .datetime:
            // ISO 8601 first (a machine's form); else the field's own input format.
            guard let date = ISO8601.parse(text) else { plain = .text(text); break }
            if let error = cutOff(date, text) { return .failure(error) }
            plain = .date(date)
        case .some(.text(let text)) where field.kind == .decimal && ValueBytes.nonFiniteDouble(named: text) != nil:
            // NaN or ±Infinity by name, as FormStore's own JSON writes a float holding one.
            plain = .double(ValueBytes.nonFiniteDouble(named: text)!)
        case .some(.int(let number)) where field.kind == .bool && new:
            // A new record's (or row's) whole number is a bool as stored (`2`, `-1` read as yes) and is
            // written as given, as an import writes it; a stored record's takes 1 or 0 alone, which it
            // writes in the column's words: another number would be written as 1.
            plain = .bool(number != 0)
        case .some(.int(let number)) where field.kind.holdsText && !field.readsHexAsBytes:
            // A number for text is the numeral, as typed; a BLOB column or one of no type keeps
            // it a number, as the command's `FIELD:=81` and an import do (it was refused).
            plain = .text(String(number))
        case .some(.double(let number)) where field.kind.holdsText && number.isFinite && !field.readsHexAsBytes:
            plain = .text(Transform.decimalText(number))
        case .some(let value):
            plain = value
        case .none:
            // `fieldValue` is nil only for {"$base64": …} that is not base64.
            return .failure(FieldError(field: field.key, code: "kind",
                                       message: "\(field.label): $base64 is not valid base64"))
        }
        if plain == .null { return .success(.null) }
        // NaN where the store holds none (SQLite) is refused here, as a value the field cannot hold: the
        // store refused it only at the save, an error a service answered as its own (500), not the request's.
        if case .double(let number) = plain, number.isNaN, !backend.holdsNaN { return .failure(cannotHold(field, "NaN")) }
        // Text as JSON gives it, not hex typed (`Field.readsHexAsBytes`).
        if case .text = plain, field.readsHexAsBytes { return .success(plain) }
        let parsed: FieldValue
        switch field.parse(value: plain, in: form) {
        case .success(let value): parsed = value
        case .failure(let error): return .failure(error)
        }
        do {
            return .success(try field.coerce(field.choiceValue(parsed), messages: form.messages))
        } catch {
            return .failure(error)
        }
    }

    /// `field`'s `kind` error for a value it cannot hold, named by `kind` ("Tags cannot hold a JSON object").
    private func cannotHold(_ field: Field, _ kind: String) -> FieldError {
        FieldError(field: field.key, code: "kind", message: MessageCatalog.english.resolve(
            code: "kind", field: field, overrides: form.messages, ruleMessage: nil, parameters: ["kind": kind]))
    }

    /// Why a body may never set `field`, whatever its values: checked before the value is read.
    private func whyNeverSettable(_ field: Field) -> FieldError? {
        pipeline.fixedRefusal(field, isNew: key == nil)?.error
    }

    /// Why a body may not set `field` now, judged on the values it would leave (`RecordPipeline`).
    private func whyNotSettable(_ field: Field, values: [String: FieldValue]) -> FieldError? {
        (pipeline.hiddenRefusal(field, values: values, editing: isEditing)
            ?? pipeline.refusal(field, isNew: key == nil, values: values, editing: isEditing))?.error
    }
}
