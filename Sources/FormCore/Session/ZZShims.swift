// TEMPORARY shims until the forms branch lands. Not committed.
extension Field {
    public func parse(_ input: String) -> Result<FieldValue, FieldError> { .success(.text(input)) }
    public func format(_ value: FieldValue) -> String { value.textValue ?? "" }
    public func effectiveTiming(in form: Form) -> ValidationTiming { validationTiming ?? form.validationTiming }
}
extension Form {
    public func validate(field: Field, value: FieldValue, values: [String: FieldValue], editing: Bool = true) -> [FieldError] { field.isRequired && value.isEmpty ? [FieldError(field: field.key, code: "required", message: "\(field.label) is required")] : [] }
    public func validateRules(values: [String: FieldValue], editing: Bool = true) -> [FieldError] { [] }
    public func isHidden(_ field: Field, values: [String: FieldValue], editing: Bool) -> Bool { field.hiddenWhen?.evaluate(editing: editing, value: { values[$0] ?? .null }) ?? false }
    public func isDisabled(_ field: Field, values: [String: FieldValue], editing: Bool) -> Bool { false }
}
