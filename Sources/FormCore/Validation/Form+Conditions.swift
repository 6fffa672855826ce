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

    /// Whether `field`'s `disabledWhen` holds for these values. (Read-only
    /// fields and the edit mode are the session's concern: `whyNotEditable`.)
    public func isDisabled(_ field: Field, values: [String: FieldValue], editing: Bool = true) -> Bool {
        guard let condition = field.disabledWhen else { return false }
        return condition.evaluate(editing: editing) { values[$0] ?? .null }
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
