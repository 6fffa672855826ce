public import FoundationEssentials

extension Form {
    /// Checks one field's model value: required, its kind's checks, then its
    /// rules. A hidden field (its `hiddenWhen` holds) and a display-only field
    /// report nothing; an empty value is only checked by `required`.
    ///
    /// ```swift
    /// form.validate(field: form.field("age")!, value: .int(130), values: current)
    /// // [FieldError(field: "age", code: "range", message: "Age must be between 0 and 119")]
    /// ```
    /// - parameter values: every current model value, for conditions and `equalTo`.
    /// - parameter now: the moment `maxFutureDays` counts from.
    /// - returns: at most one error per code, in rule order.
    public func validate(field: Field, value: FieldValue, values: [String: FieldValue], editing: Bool = true,
                         now: Date = Date()) -> [FieldError] {
        validate(field: field, value: value, values: values, editing: editing, now: now, visibility: nil)
    }

    /// `validate(field:...)` with the hidden fields already known for `values`
    /// (`nil`: work them out), so checking a whole form walks its conditions once.
    /// `valueIsStored`: `value` was read from `values` (or is `.null` missing there), so it replaces nothing.
    func validate(field: Field, value: FieldValue, values: [String: FieldValue], editing: Bool,
                  now: Date, visibility: FormVisibility?, valueIsStored: Bool = false) -> [FieldError] {
        guard field.holdsValue else { return [] }
        // Usually `values` already holds `value`: copying every value per field
        // made checking a whole form quadratic. Only a condition or an
        // `equalTo` rule reads the others, so only they get the values with
        // this one in (a keystroke's check passes none).
        let replaced = !valueIsStored && (values[field.key] ?? .null) != value
        let readsOthers = field.hiddenWhen != nil || field.rules.contains { if case .equalTo = $0 { true } else { false } }
        var current = values
        if replaced && readsOthers { current[field.key] = value }
        if let visibility, !replaced {
            if visibility.isHidden(field.key) { return [] }
        } else if isHidden(field, values: current, editing: editing) {
            return []
        }

        // Failures are gathered first and their messages resolved after: a
        // closure resolving them as found captured (copied) the field and the
        // form on every keystroke (issue 14).
        var failures: [Failure] = []
        if field.isRequired || field.isNotNull {
            let missing = if !field.isRequired {
                value == .null  // NOT NULL alone: '' and false are values
            } else if field.kind == .bool {
                value != .bool(true)
            } else {
                value.isEmpty
            }
            if missing { return errors(of: [Failure("required")], field: field) }
        }
        if value.isEmpty { return [] }

        if let code = kindProblem(field, value) {
            var (parameters, variant) = code == "choice" ? choiceDetail(value, field) : ([:], nil)
            // A fraction in an integer field is a number, just not a whole one.
            if code == "number", field.kind == .integer, value.doubleValue?.isFinite == true { variant = "number.whole" }
            if code == "date" { variant = Field.dateVariant(field.kind) }
            failures.append(Failure(code, parameters: parameters, variant: variant))
        }
        for rule in field.rules {
            check(rule, field: field, value: value, values: current, now: now, failures: &failures)
        }
        return failures.isEmpty ? [] : errors(of: failures, field: field)
    }

    /// One failed check, before its message is resolved.
    private struct Failure {
        var code: String
        var ruleMessage: String?
        var parameters: [String: String]
        var variant: String?

        init(_ code: String, ruleMessage: String? = nil, parameters: [String: String] = [:], variant: String? = nil) {
            self.code = code
            self.ruleMessage = ruleMessage
            self.parameters = parameters
            self.variant = variant
        }
    }

    /// The errors of `failures`, in order: at most one per code, the first.
    private func errors(of failures: [Failure], field: Field) -> [FieldError] {
        var errors: [FieldError] = []
        for failure in failures where !errors.contains(where: { $0.code == failure.code }) {
            let message = MessageCatalog.english.resolve(code: failure.code, field: field, overrides: messages,
                                                         ruleMessage: failure.ruleMessage,
                                                         parameters: failure.parameters, variant: failure.variant)
            errors.append(FieldError(field: field.key, code: failure.code, message: message))
        }
        return errors
    }

    /// Whether checking `field` (its own checks, then the form's rules) reads
    /// other fields' values: its `hiddenWhen`, an `equalTo` rule, or any form
    /// rule. When it does not, `validate(field:...)` and `validateRules` give
    /// the same result for any `values`, and a caller may skip gathering them.
    public func validationReadsOtherValues(_ field: Field) -> Bool {
        if !rules.isEmpty || field.hiddenWhen != nil { return true }
        return field.rules.contains { if case .equalTo = $0 { return true } else { return false } }
    }

    /// Checks the form's cross-field rules; each error blames its rule's
    /// field. Rules naming a hidden field are skipped.
    public func validateRules(values: [String: FieldValue], editing: Bool = true) -> [FieldError] {
        let visibility = rules.isEmpty ? nil : visibility(values: values, editing: editing)
        return rules.compactMap { check($0, values: values, hidden: visibility) }
    }

    /// Every visible field's checks (missing values count as `.null`), then the form's rules.
    public func validateAll(values: [String: FieldValue], editing: Bool = true, now: Date = Date()) -> [FieldError] {
        validate(changed: Set(fields.map(\.key)), values: values, editing: editing, now: now).errors
    }

    /// Checks a record as a save does: a changed field's failures are errors,
    /// an unchanged field's are warnings (the stored record already broke the
    /// rule; see `ValidationReport`). A form rule is an error when it names a
    /// changed field or no field at all, else a warning. For a new record,
    /// pass every field's key: everything is validated.
    ///
    /// ```swift
    /// // A stored row whose e-mail was never valid, and a new city typed in:
    /// let report = form.validate(changed: ["city"], values: ["city": "Kraków", "email": "not-an-email"])
    /// report.errors     // []
    /// report.warnings   // [FieldError(field: "email", code: "email", ...)]
    /// ```
    /// - parameter changed: the keys of the fields whose values differ from the stored ones.
    /// - parameter values: every current model value (missing ones count as `.null`).
    /// - returns: errors and warnings, each in form order, field errors before the form rules'.
    public func validate(changed: Set<String>, values: [String: FieldValue], editing: Bool = true,
                         now: Date = Date()) -> ValidationReport {
        validate(changed: changed, values: values, editing: editing, now: now,
                 visibility: visibility(values: values, editing: editing))
    }

    /// `validate(changed:...)` with the hidden fields already known for
    /// `values` (a session keeps them between changes).
    func validate(changed: Set<String>, values: [String: FieldValue], editing: Bool, now: Date,
                  visibility: FormVisibility) -> ValidationReport {
        let fields = fields
        return ValidationReport(
            errors: failures(of: fields, changed: changed, asErrors: true, values: values, editing: editing,
                             now: now, visibility: visibility),
            warnings: failures(of: fields, changed: changed, asErrors: false, values: values, editing: editing,
                               now: now, visibility: visibility))
    }

    /// One half of `validate(changed:...)`: with `asErrors`, the checks of the
    /// changed fields and the form rules naming one of them (or none); else
    /// the checks of the other fields and the rules naming only those. A save
    /// needs the first at once and the second only when someone reads the
    /// warnings: checking the untouched fields was most of a save's validation.
    /// `fields` is `self.fields` (a compiled form passes its own copy).
    /// `everyField`: `changed` holds every value-holding field's key (a new
    /// record), so no field's key need be looked up in it.
    func failures(of fields: [Field], changed: Set<String>, asErrors: Bool, values: [String: FieldValue], editing: Bool, now: Date,
                  visibility: FormVisibility, everyField: Bool = false) -> [FieldError] {
        var found: [FieldError] = []
        // By index: the test reads two properties, where a `for field in` copied every field.
        for index in fields.indices
        where fields[index].holdsValue && (everyField ? true : changed.contains(fields[index].key)) == asErrors {
            let field = fields[index]
            found += validate(field: field, value: values[field.key] ?? .null, values: values,
                              editing: editing, now: now, visibility: visibility, valueIsStored: true)
        }
        for rule in rules {
            let named = rule.fields
            guard (named.isEmpty || named.contains(where: changed.contains)) == asErrors else { continue }
            // A rule over a field that is never stored (a repeated password) says nothing of the
            // stored record: unless a change is checked against it, it warns of nothing.
            if !asErrors, named.contains(where: { field($0)?.isStored == false }) { continue }
            guard let error = check(rule, values: values, hidden: visibility) else { continue }
            found.append(error)
        }
        return found
    }

    /// The errors `failures(of:…everyField: true)` finds in a new record of a
    /// form whose checks read only their own field's value
    /// (`RecordPipeline.readsOnlyOwnValues`: no form rule, condition or
    /// `equalTo`): each field at `checked` (positions in `fields`) against
    /// `value(position)`, with no dictionary of values built or read.
    func failures(of fields: [Field], checked: [Int], editing: Bool, now: Date,
                  value: (Int) -> FieldValue) -> [FieldError] {
        var found: [FieldError] = []
        // Through the buffer: `fields[index]` as an argument copied the whole field, per field of every row.
        fields.withUnsafeBufferPointer { fields in
            for index in checked {
                let value = value(index)
                // A field checked by nothing but a kind that reads the value alone (a number, a bool, a
                // date), holding a value that passes (an import's every row): no copy of the field is made.
                if !fields[index].isRequired, !fields[index].isNotNull, fields[index].rules.isEmpty,
                   value.isEmpty || Self.kindReadsValueAlone(fields[index].kind)
                    && Self.valueKindProblem(fields[index].kind, value) == nil {
                    continue
                }
                found += validate(field: fields[index], value: value, values: [:], editing: editing, now: now,
                                  visibility: .nothingHidden, valueIsStored: true)
            }
        }
        return found
    }

    /// The error of one cross-field rule, or `nil` when it holds or names a hidden field.
    private func check(_ rule: FormRule, values: [String: FieldValue], hidden: FormVisibility?) -> FieldError? {
        let isHidden = { (field: Field) in hidden?.isHidden(field.key) ?? false }
        switch rule {
        case .fieldsEqual(let key, let otherKey, let code, let message):
            let blamed = field(key)
            let other = field(otherKey)
            if let blamed, isHidden(blamed) { return nil }
            if let other, isHidden(other) { return nil }
            guard (values[key] ?? .null) != (values[otherKey] ?? .null) else { return nil }
            let text = MessageCatalog.english.resolve(code: code, field: blamed, overrides: messages,
                                                      ruleMessage: message,
                                                      parameters: ["other": other?.label ?? otherKey])
            return FieldError(field: key, code: code, message: text)
        case .custom(let custom):
            let blamed = custom.field.flatMap { field($0) }
            if let blamed, isHidden(blamed) { return nil }
            guard !custom.check(values) else { return nil }
            // A rule blaming the form, with no message of its own, names the form and itself.
            let text = MessageCatalog.english.resolve(code: custom.code, field: blamed, overrides: messages,
                                                      ruleMessage: custom.message,
                                                      parameters: blamed == nil ? ["label": title, "code": custom.code] : [:],
                                                      variant: blamed == nil && !MessageCatalog.english.hasTemplate(custom.code)
                                                        ? "invalid.form" : nil)
            return FieldError(field: custom.field, code: custom.code, message: text)
        }
    }

    /// Whether `kindProblem` checks values of `kind` at all (the kinds its
    /// switch names): a field of another kind, not required and without
    /// rules, passes whatever it holds.
    static func hasKindCheck(_ kind: FieldKind) -> Bool {
        switch kind {
        case .email, .state, .zip, .phone, .url, .integer, .decimal, .date, .time, .datetime, .bool, .choice, .multichoice:
            return true
        default:
            return false
        }
    }

    /// The code of the kind's own check that `value` fails, if any.
    private func kindProblem(_ field: Field, _ value: FieldValue) -> String? {
        let text = value.textValue
        switch field.kind {
        case .email:
            if let text, TextPattern.matches(TextPattern.email, text) != true { return "email" }
        case .state:
            if let text, TextPattern.matches(TextPattern.state, text) != true { return "state" }
        case .zip:
            if let text, TextPattern.matches(TextPattern.zip, text) != true { return "zip" }
        case .phone:
            if let text, TextPattern.matches(TextPattern.phone, text) != true { return "phone" }
        case .url:
            if let text {
                let url = URL(string: text)
                if url?.scheme == nil || (url?.host == nil && url?.scheme != "mailto") { return "url" }
            }
        case .choice, .multichoice:
            if !field.choices.isEmpty, !isAmongChoices(value, field) { return "choice" }
        default:
            return Self.valueKindProblem(field.kind, value)
        }
        return nil
    }

    /// Whether a kind's own check reads the value alone (`valueKindProblem`), not the field.
    private static func kindReadsValueAlone(_ kind: FieldKind) -> Bool {
        switch kind {
        case .integer, .decimal, .date, .time, .datetime, .bool: return true
        default: return false
        }
    }

    /// The instants (seconds since 1970) of the years 0000 to 9999, which a
    /// date's text holds in four digits, as SQLite's date functions and the
    /// input formats read them.
    static let writableDates = -62_167_219_200.0 ..< 253_402_300_800.0

    /// The part of `kindProblem` that reads the value alone: a number, a date, a bool.
    private static func valueKindProblem(_ kind: FieldKind, _ value: FieldValue) -> String? {
        switch kind {
        case .integer: if value.intValue == nil { return "number" }
        // A decimal kept as its text (more digits than a double holds, `FieldValue.decimal(exactly:)`) is a number too.
        case .decimal: if value.doubleValue == nil, !value.isDecimalNumeral { return "number" }
        case .date, .time, .datetime:
            // A date past what four digits of year write (a typed door's `Date`) was stored and never read back.
            guard case .date(let date) = value, Self.writableDates.contains(date.timeIntervalSince1970) else { return "date" }
        case .bool: if value.boolValue == nil { return "bool" }
        default: break
        }
        return nil
    }

    /// For a list that is not among the choices, the first item that is not
    /// (in a list of several, which one is wrong is the useful part).
    private func choiceDetail(_ value: FieldValue, _ field: Field) -> ([String: String], String?) {
        let allowed = field.choices.filter { !$0.isDisabled }.map(\.value)
        // A secure field's value is never echoed (issue 20).
        guard !field.isSecure, case .list(let items) = value, let wrong = items.first(where: { !allowed.contains($0) }) else {
            return ([:], nil)
        }
        return (["value": "\"\(wrong.textValue ?? "\(wrong)")\""], "choice.item")
    }

    /// Whether `value` is an enabled choice's: the value itself, or its text
    /// as a TEXT column holds a number choice (`'2'` for the choice 2).
    private func isAmongChoices(_ value: FieldValue, _ field: Field) -> Bool {
        let allowed = field.choices.filter { !$0.isDisabled }
        func isAllowed(_ item: FieldValue) -> Bool {
            allowed.contains { choice in
                if choice.value == item { return true }
                if case .text(let text) = item { return text == choice.valueText }
                return false
            }
        }
        if case .list(let items) = value { return items.allSatisfy(isAllowed) }
        return isAllowed(value)
    }

    private func check(_ rule: Rule, field: Field, value: FieldValue, values: [String: FieldValue], now: Date,
                       failures: inout [Failure]) {
        func fail(_ code: String, _ ruleMessage: String?, _ parameters: [String: String], _ variant: String?) {
            failures.append(Failure(code, ruleMessage: ruleMessage, parameters: parameters, variant: variant))
        }
        func length(_ v: FieldValue) -> Int? {
            switch v {
            case .text(let s): return s.characterCount
            case .list(let l): return l.count
            default: return nil
            }
        }
        switch rule {
        case .required:
            break // handled before any other rule
        case .minLength(let min):
            if let n = length(value), n < min { fail(rule.code, nil, ["min": String(min)], nil) }
        case .maxLength(let max):
            if let n = length(value), n > max { fail(rule.code, nil, ["max": String(max)], nil) }
        case .pattern(let pattern, let name):
            if let text = value.textValue ?? (field.kind == .integer ? value.intValue.map(String.init) : nil) {
                switch TextPattern.match(pattern, text) {
                case .matched: break
                case .overBudget: fail(rule.code, nil, ["name": name ?? ""], "pattern.budget")
                case .notMatched, .invalid: fail(rule.code, nil, ["name": name ?? ""], name == nil ? "pattern.unnamed" : nil)
                }
            }
        case .email:
            if let text = value.textValue, TextPattern.matches(TextPattern.email, text) != true {
                fail(rule.code, nil, [:], nil)
            }
        case .range(let min, let max):
            guard let number = value.doubleValue else { break }
            if (min.map { number < $0 } ?? false) || (max.map { number > $0 } ?? false) {
                let variant = min == nil ? "range.max" : max == nil ? "range.min" : nil
                fail(rule.code, nil, ["min": min.map(Transform.decimalText) ?? "",
                                      "max": max.map(Transform.decimalText) ?? ""], variant)
            }
        case .oneOfChoices:
            if !isAmongChoices(value, field) {
                let (parameters, variant) = choiceDetail(value, field)
                fail(rule.code, nil, parameters, variant)
            }
        case .equalTo(let otherKey):
            if value != (values[otherKey] ?? .null) {
                fail(rule.code, nil, ["other": self.field(otherKey)?.label ?? otherKey], nil)
            }
        case .maxFutureDays(let days):
            if case .date(let date) = value, date > now.addingTimeInterval(Double(days) * 86_400) {
                fail(rule.code, nil, ["days": String(days)], days == 0 ? "maxFutureDays.none" : nil)
            }
        case .custom(let custom):
            if !custom.check(value) { fail(custom.code, custom.message, [:], nil) }
        }
    }
}
