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
