extension Form {
    /// Which fields are hidden for these values, each condition evaluated
    /// once (see `FormVisibility`). Ask this once per change rather than
    /// `isHidden` per field.
    public func visibility(values: [String: FieldValue], editing: Bool = true) -> FormVisibility {
        FormVisibility(form: self, values: values, editing: editing)
    }

    /// Whether `field` is hidden for these values: its `hiddenWhen` holds.
    /// Hidden fields are not validated and are left out of `visibleValues`;
    /// conditions see a hidden field as empty, so hiding cascades.
    public func isHidden(_ field: Field, values: [String: FieldValue], editing: Bool = true) -> Bool {
        guard field.hiddenWhen != nil else { return false }
        return FormVisibility(form: self, values: values, editing: editing, wanted: [field]).isHidden(field.key)
    }

    /// Whether `field`'s `disabledWhen` holds for these values. (Read-only
    /// fields and the edit mode are the session's concern: `whyNotEditable`.)
    public func isDisabled(_ field: Field, values: [String: FieldValue], editing: Bool = true) -> Bool {
        guard let condition = field.disabledWhen else { return false }
        return condition.evaluate(editing: editing) { values[$0] ?? .null }
    }

    /// A condition in words, with the fields' labels and values as shown:
    /// `Country is "USA"`, `ZIP is empty and not while editing`.
    ///
    /// ```swift
    /// form.explain(.equals("country", "usa"))  // Country is "USA"
    /// ```
    public func explain(_ condition: Condition) -> String {
        func label(_ key: String) -> String { field(key)?.label ?? key }
        func shown(_ key: String, _ value: FieldValue) -> String {
            if value == .null { return "empty" }
            let text = field(key)?.format(value) ?? FieldValue.plainText(value)
            return "\"" + text + "\""
        }
        func part(_ inner: Condition) -> String {
            switch inner {
            case .all(let list) where list.count > 1, .any(let list) where list.count > 1: return "(" + explain(inner) + ")"
            default: return explain(inner)
            }
        }
        switch condition {
        case .equals(let key, .null), .isEmpty(let key): return "\(label(key)) is empty"
        case .notEquals(let key, .null), .isNotEmpty(let key): return "\(label(key)) is not empty"
        case .equals(let key, let value): return "\(label(key)) is \(shown(key, value))"
        case .notEquals(let key, let value): return "\(label(key)) is not \(shown(key, value))"
        case .editing: return "while editing"
        case .not(.editing): return "not while editing"
        case .not(.equals(let key, let value)): return explain(.notEquals(key, value))
        case .not(.notEquals(let key, let value)): return explain(.equals(key, value))
        case .not(.isEmpty(let key)): return explain(.isNotEmpty(key))
        case .not(.isNotEmpty(let key)): return explain(.isEmpty(key))
        case .not(let inner): return "not " + part(inner)
        case .all(let list): return list.isEmpty ? "always" : list.map(part).joined(separator: " and ")
        case .any(let list): return list.isEmpty ? "never" : list.map(part).joined(separator: " or ")
        }
    }

    /// The values without those of hidden fields (keys that name no field are kept).
    public func visibleValues(_ values: [String: FieldValue], editing: Bool = true) -> [String: FieldValue] {
        let hidden = visibility(values: values, editing: editing).hiddenKeys
        return values.filter { !hidden.contains($0.key) }
    }
}

extension Field {
    /// When this field's checks run: its own timing, else the form's.
    public func effectiveTiming(in form: Form) -> ValidationTiming {
        validationTiming ?? form.validationTiming
    }
}
