extension Form {
    /// Whether `field` is hidden for these values: its `hiddenWhen` holds.
    /// Hidden fields are not validated and are left out of `visibleValues`;
    /// conditions see a hidden field as empty, so hiding cascades.
    public func isHidden(_ field: Field, values: [String: FieldValue], editing: Bool = true) -> Bool {
        isHidden(field, values: values, editing: editing, visiting: [])
    }

    private func isHidden(_ field: Field, values: [String: FieldValue], editing: Bool, visiting: Set<String>) -> Bool {
        guard let condition = field.hiddenWhen, !visiting.contains(field.key) else { return false }
        let inside = visiting.union([field.key])
        return condition.evaluate(editing: editing) { key in
            if let other = self.field(key), isHidden(other, values: values, editing: editing, visiting: inside) {
                return .null
            }
            return values[key] ?? .null
        }
    }

    /// Whether `field` is disabled for these values: read-only, or its
    /// `disabledWhen` holds. (The edit mode is `isEditable`'s concern.)
    public func isDisabled(_ field: Field, values: [String: FieldValue], editing: Bool = true) -> Bool {
        if field.isReadOnly { return true }
        guard let condition = field.disabledWhen else { return false }
        return condition.evaluate(editing: editing) { values[$0] ?? .null }
    }

    /// Whether a person may change `field` now: not disabled, and allowed by
    /// the edit mode — `edit` outside editing and `frozen` only allow fields
    /// marked `enabledWhenNotEditing`.
    public func isEditable(_ field: Field, values: [String: FieldValue], editing: Bool) -> Bool {
        if isDisabled(field, values: values, editing: editing) { return false }
        switch mode {
        case .save, .free: return true
        case .edit: return editing || field.enabledWhenNotEditing
        case .frozen: return field.enabledWhenNotEditing
        }
    }

    /// The values without those of hidden fields (keys that name no field are kept).
    public func visibleValues(_ values: [String: FieldValue], editing: Bool = true) -> [String: FieldValue] {
        let hidden = Set(fields.filter { isHidden($0, values: values, editing: editing) }.map(\.key))
        return values.filter { !hidden.contains($0.key) }
    }
}

extension Field {
    /// When this field's checks run: its own timing, else the form's.
    public func effectiveTiming(in form: Form) -> ValidationTiming {
        validationTiming ?? form.validationTiming
    }
}
