import FoundationEssentials

/// One validation of a record as a save does it (`Form.validate(changed:values:)`),
/// split so its two halves run apart: the errors at once (they decide the
/// save), the warnings only when someone reads them.
///
/// ```swift
/// let check = ValidationCheck(form: form, fields: form.fields, changed: ["city"], values: values,
///                             editing: true, visibility: form.visibility(values: values, editing: true))
/// check.errors()     // the changed fields' checks and the rules naming them
/// check.warnings()   // later, if asked: every other field's checks
/// ```
///
/// A stored record's save changes one or two fields of twenty: checking the
/// others for warnings was most of the save's validation, and most saves
/// never show them. The check holds the values as they were (a dictionary's
/// copy shares its storage), so the warnings found later are the ones the
/// save would have found.
struct ValidationCheck: Sendable {
    let form: Form
    /// `form.fields`, as the caller already holds them.
    let fields: [Field]
    let changed: Set<String>
    /// The visible values (`SessionWarnings` may hold them apart until needed).
    var values: [String: FieldValue]
    let editing: Bool
    let now: Date
    let visibility: FormVisibility
    /// The fields of `changed`, in form order, when the caller knows them:
    /// what `errors()` walks instead of every field.
    var changedFields: [Field]?
    /// Whether `values` are the very dictionary the caller gave, not a
    /// filtered copy (`RecordPipeline.check`): a session then need not keep them twice.
    var valuesAreTheGiven = false

    init(form: Form, fields: [Field], changed: Set<String>, values: [String: FieldValue], editing: Bool,
         now: Date = Date(), visibility: FormVisibility) {
        self.form = form
        self.fields = fields
        self.changed = changed
        self.values = values
        self.editing = editing
        self.now = now
        self.visibility = visibility
    }

    /// Failures of the changed fields, and of the form rules naming one of them or none.
    func errors() -> [FieldError] {
        form.failures(of: changedFields ?? fields, changed: changed, asErrors: true, values: values, editing: editing,
                      now: now, visibility: visibility)
    }

    /// Failures of the other fields, and of the form rules naming only those.
    func warnings() -> [FieldError] {
        form.failures(of: fields, changed: changed, asErrors: false, values: values, editing: editing, now: now,
                      visibility: visibility)
    }
}
