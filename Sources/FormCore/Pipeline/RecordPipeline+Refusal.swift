extension RecordPipeline {
    /// The codes of refusals (`Refusal.code`): their messages name the field already.
    public static let refusalCodes: Set<String> = ["readOnly", "disabled", "hidden", "notEditable"]

    /// Why a field may not be changed: a stable code (`readOnly`, `disabled`,
    /// `hidden`, `notEditable`) and the words a person reads after the field's name.
    public struct Refusal: Sendable, Hashable {
        public var field: String
        public var label: String
        public var code: String
        /// `is read-only`, `cannot be changed: the form is frozen`, …
        public var why: String

        init(field: Field, code: String, why: String) {
            self.field = field.key
            self.label = field.label
            self.code = code
            self.why = why
        }

        /// The refusal as every front end shows it: `Label (key) why`.
        public var error: FieldError {
            FieldError(field: field, code: code, message: "\(label) (\(field)) \(why)")
        }
    }
}
