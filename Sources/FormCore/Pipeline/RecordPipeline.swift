import FoundationEssentials

/// The one path a record's values take to storage, whoever typed them: the
/// session's save, `set`, `new`, `edit`, `import` and the JSON door all ask it
/// what may change, what a save validates and what it writes, so they cannot
/// disagree (issue 14).
///
/// ```swift
/// let pipeline = RecordPipeline(form)       // once per form, not per row
/// var values = pipeline.defaults            // a new record
/// values["title"] = .text("Printer jam")
/// let plan = pipeline.plan(isNew: true, pristine: pipeline.defaults, values: values, given: ["title"], editing: true)
/// switch plan {
/// case .insert(let stored): …               // every visible stored field
/// case .invalid(let errors, _): …
/// default: break
/// }
/// ```
///
/// The rules, in the order a write meets them:
/// 1. what may change (`refusal(_:isNew:values:editing:)`): display-only and
///    read-only fields (a new record's key excepted), `disabledWhen`, and the
///    edit mode (frozen, or edit mode before editing begins) unless the field
///    is `enabledWhenNotEditing`; a change to a field hidden by the values it
///    leaves is refused too (`hidden`), since a save writes only visible fields;
/// 2. what is validated (`validate(changed:values:editing:)`): every field of
///    a new record, only what changed of a stored one, the rest warnings;
/// 3. what is written (`plan`): a new record's visible stored fields, or a
///    stored record's changed visible stored fields against their base.
///
/// A final class of constants, made once per form (`CompiledForm`): as a
/// struct its 300 bytes were copied onto the stack by each method of an
/// import that read one of them, per value (issue 14).
public final class RecordPipeline: Sendable {
    public let form: Form
    /// The fields that hold a value, in form order (the first of a repeated key).
    public let fields: [Field]
    /// Each field's slot in `fields`, by key.
    private let slots: [String: Int]
    /// The stored fields' slots, in form order.
    private let storedSlots: [Int]
    private let primaryKey: Set<String>
    /// A new record's values: each field's default.
    public let defaults: [String: FieldValue]
    /// Whether any field's visibility depends on values (else no walk is needed per record).
    let hasConditions: Bool
    /// Per slot: whether any rule of `refusal` or `hiddenRefusal` can refuse the
    /// field (read-only, `disabledWhen`, `hiddenWhen`, the mode); an import asks
    /// for every column of every row.
    let mayRefuse: [Bool]
    /// Per slot: whether `refusal(_:isNew: true, …)` can refuse the field: as
    /// `mayRefuse`, less a read-only key, which a new record types in (an
    /// inferred form's key is read-only: `planInsert` asked for it per row, and
    /// hashed the key's name to find it free).
    let mayRefuseNew: [Bool]
    /// Every value-holding field's key: what a new record validates.
    public let allKeys: Set<String>
    /// Each slot's `allTransforms`, made once: an import parses every value of every row.
    private let transforms: [[Transform]]
    /// Per slot: whether the field reads typed hex as bytes (`hex`, `blobLiteral`:
    /// a BLOB or untyped column). A value that arrives as JSON or CSV says its
    /// own class (bytes come as `{"$base64": …}` or `\x…`), so an import takes
    /// such a field's text and numbers as they are: `"CAFE"` stays text, `42` an integer.
    public let readsHexAsBytes: [Bool]
    /// `form.fields`, flattened once (the property flattens the sections per call).
    let formFields: [Field]
    /// The slots of a record of this form: slot `i` is `fields[i]`'s
    /// (`CompiledForm.layout` is this one).
    public let layout: RecordLayout
    /// A new record's values laid out by slot: each field's default.
    public let defaultValues: RecordValues
    /// The slots whose field has a default (`defaultValues`): what a new
    /// record's empty slots take, walked without reading every slot per row.
    public let defaultedSlots: [Int]
    /// Each slot's kind: an import reads it per value, where `fields[slot].kind` copied the whole field.
    public let kinds: [FieldKind]
    /// Whether each slot's field is stored.
    let isStoredSlot: [Bool]
    /// No field's checks, refusals or visibility read another field's value:
    /// no form rule, `hiddenWhen`, `disabledWhen` or `equalTo`. A new record
    /// of such a form is planned slot by slot (`planInsert`), with no
    /// dictionary of its values built.
    let readsOnlyOwnValues: Bool
    /// The fields of `formFields` whose checks can fail (required, a rule, a
    /// kind with a check of its own), by position there: what `planInsert`
    /// validates. The others pass whatever they hold.
    let checkedFields: [Int]
    /// The slot of each of `formFields` that holds a value (same order).
    let formFieldSlots: [Int?]

    public init(_ form: Form) {
        // Closures, not key paths: one of the key paths was made at run time
        // (`swift_getKeyPath`, 40k instructions of a command's start).
        self.form = form
        var fields: [Field] = []
        var slots: [String: Int] = [:]
        for field in form.fields where field.holdsValue && slots[field.key] == nil {
            slots[field.key] = fields.count
            fields.append(field)
        }
        self.fields = fields
        self.slots = slots
        storedSlots = fields.indices.filter { fields[$0].isStored }
        let primaryKey = Set(form.primaryKey)
        self.primaryKey = primaryKey
        defaults = Dictionary(fields.map { ($0.key, $0.defaultValue) }, uniquingKeysWith: { first, _ in first })
        hasConditions = fields.contains { $0.hiddenWhen != nil }
        allKeys = Set(fields.map { $0.key })
        let modeRefuses = form.mode == .frozen || form.mode == .edit
        mayRefuse = fields.map {
            $0.isReadOnly || primaryKey.contains($0.key) || $0.disabledWhen != nil || $0.hiddenWhen != nil || (modeRefuses && !$0.enabledWhenNotEditing)
        }
        mayRefuseNew = fields.map {
            ($0.isReadOnly && !primaryKey.contains($0.key)) || $0.disabledWhen != nil || $0.hiddenWhen != nil
                || (modeRefuses && !$0.enabledWhenNotEditing)
        }
        transforms = fields.map { $0.allTransforms }
        readsHexAsBytes = fields.map(\.readsHexAsBytes)
        let formFields = form.fields
        self.formFields = formFields
        layout = RecordLayout.of(form)
        var defaultValues = RecordValues(layout: layout)
        defaultValues.slots = fields.map { $0.defaultValue }
        self.defaultValues = defaultValues
        defaultedSlots = fields.indices.filter { fields[$0].defaultValue != nil }
        kinds = fields.map { $0.kind }
        isStoredSlot = fields.map { $0.isStored }
        readsOnlyOwnValues = form.rules.isEmpty && !formFields.contains { field in
            field.hiddenWhen != nil || field.disabledWhen != nil || form.validationReadsOtherValues(field)
        }
        let formFieldSlots = formFields.map { $0.holdsValue ? slots[$0.key] : nil }
        self.formFieldSlots = formFieldSlots
        checkedFields = formFields.indices.filter { index in
            let field = formFields[index]
            return formFieldSlots[index] != nil
                && (field.isRequired || field.isNotNull || !field.rules.isEmpty || Form.hasKindCheck(field.kind))
        }
    }

    /// The field with this key that holds a value.
    public func field(_ key: String) -> Field? { slots[key].map { fields[$0] } }

    /// The slot (position in `fields`) of the field with this key that holds a
    /// value: a caller touching a field per value reads `fields[slot]` in place
    /// rather than copying the whole `Field` that `field(_:)` returns.
    public func slot(_ key: String) -> Int? { slots[key] }

    /// Parses a value as the field in `slot` parses what is typed
    /// (`Field.parse(value:in:)`), through its transforms made once.
    public func parse(_ input: FieldValue, slot: Int) -> Result<FieldValue, FieldError> {
        // No step to run (text that keeps its white space): the value as it is, and no copy of the field.
        if transforms[slot].isEmpty { return .success(input) }
        return fields.withUnsafeBufferPointer { $0[slot].parse(input, through: transforms[slot], messages: form.messages) }
    }

    /// Whether the field in `slot` parses typed text to that very text (it has
    /// no transform to run), so a caller may take the text as it is, unparsed.
    public func keepsText(slot: Int) -> Bool { transforms[slot].isEmpty }

    // MARK: What may change

    /// Why `field` may not be changed, given the values the change leaves and
    /// whether the record is new; `nil` when it may. Hidden fields are judged
    /// apart (`hiddenRefusal`): a session lets a hidden field be typed into and
    /// refuses the change at save.
    public func refusal(_ field: Field, isNew: Bool, values: [String: FieldValue], editing: Bool) -> Refusal? {
        if let fixed = fixedRefusal(field, isNew: isNew) { return fixed }
        if form.isDisabled(field, values: values, editing: editing) {
            return Refusal(field: field, code: "disabled", why: "is disabled")
        }
        return modeRefusal(field, editing: editing)
    }

    /// The part of `refusal` the edit mode decides: a frozen form, or an edit
    /// form before editing begins, takes changes to `enabledWhenNotEditing`
    /// fields only. A front end that must say "only X can be changed" asks this.
    public func modeRefusal(_ field: Field, editing: Bool) -> Refusal? {
        if field.enabledWhenNotEditing { return nil }
        switch form.mode {
        case .frozen: return Refusal(field: field, code: "notEditable", why: "cannot be changed: the form is frozen")
        case .edit where !editing:
            return Refusal(field: field, code: "notEditable", why: "cannot be changed before editing begins (beginEditing)")
        default: return nil
        }
    }

    /// The part of `refusal` no value changes: display-only and read-only fields.
    public func fixedRefusal(_ field: Field, isNew: Bool) -> Refusal? {
        if !field.holdsValue { return Refusal(field: field, code: "notEditable", why: "is display-only") }
        // A new record's key is typed in; once stored it is read-only like any such field.
        if field.isReadOnly && !(isNew && primaryKey.contains(field.key)) {
            return Refusal(field: field, code: "readOnly", why: "is read-only")
        }
        // A stored record is found by its key, so a save does not change it (a spec may leave the
        // key's field editable: the update went through and the row was then not found by its old key).
        if !isNew && primaryKey.contains(field.key) {
            return Refusal(field: field, code: "readOnly", why: "is part of the record's key, which a save does not change")
        }
        return nil
    }

    /// The refusal of a change to `field` while the values hide it.
    public func hiddenRefusal(_ field: Field, values: [String: FieldValue], editing: Bool) -> Refusal? {
        guard field.hiddenWhen != nil, form.isHidden(field, values: values, editing: editing) else { return nil }
        return Refusal(field: field, code: "hidden", why: Self.hiddenWhy)
    }

    /// The error a save gives for a change to a field hidden now (code `hidden`):
    /// the same words as a refused input's, whichever comes first.
    public func hiddenChangeError(_ field: Field) -> FieldError {
        Refusal(field: field, code: "hidden", why: Self.hiddenWhy).error
    }

    private static let hiddenWhy = "is hidden, so its change cannot be saved: show it or undo the change"

    /// The fields a change shows: hidden for `pristine` (as stored), visible
    /// for `values`. A save validates them as changed: a rule they break
    /// (`required`) is the change's doing, not a stored value's, and
    /// is an error, not a warning.
    public func revealedKeys(pristine: [String: FieldValue], values: [String: FieldValue], editing: Bool) -> [String] {
        guard hasConditions else { return [] }
        let before = form.visibility(values: pristine, editing: editing)
        let after = form.visibility(values: values, editing: editing)
        return fields.compactMap { field in
            field.hiddenWhen != nil && before.isHidden(field.key) && !after.isHidden(field.key) ? field.key : nil
        }
    }

    // MARK: What is validated

    /// Checks a record as a save does: the visible values, a changed field's
    /// failures as errors and an unchanged one's as warnings
    /// (`Form.validate(changed:values:editing:)`). For a new record pass every
    /// field's key (`allKeys`).
    public func validate(changed: Set<String>, values: [String: FieldValue], editing: Bool) -> ValidationReport {
        // Without conditions nothing is hidden: no visibility to work out per record (an import's every row).
        guard hasConditions else {
            return form.validate(changed: changed, values: values, editing: editing, now: Date(), visibility: .nothingHidden)
        }
        return form.validate(changed: changed, values: visibleValues(values, editing: editing), editing: editing)
    }

    /// The errors half of `validate(changed:values:editing:)`, without working
    /// out the warnings; `isNew`: `changed` is `allKeys`.
    func errors(changed: Set<String>, isNew: Bool, values: [String: FieldValue], editing: Bool) -> [FieldError] {
        guard hasConditions else {
            return form.failures(of: formFields, changed: changed, asErrors: true, values: values, editing: editing,
                                 now: Date(), visibility: .nothingHidden, everyField: isNew)
        }
        let visible = visibleValues(values, editing: editing)
        return form.failures(of: formFields, changed: changed, asErrors: true, values: visible, editing: editing,
                             now: Date(), visibility: form.visibility(values: visible, editing: editing), everyField: isNew)
    }

    /// `validate(changed:values:editing:)` with the hidden fields already
    /// known for `values` (a session keeps them between changes), as a check
    /// whose errors and warnings are asked for apart (`ValidationCheck`).
    /// `fields` is `form.fields` (the compiled form's).
    /// `changedFields`, when given, are the fields of `changed` in form order:
    /// the errors then walk only them, not the whole form.
    func check(_ fields: [Field], changed: Set<String>, changedFields: [Field]? = nil, values: [String: FieldValue],
               editing: Bool, visibility: FormVisibility) -> ValidationCheck {
        let visible = hasConditions ? values.filter { !visibility.isHidden($0.key) } : values
        var check = ValidationCheck(form: form, fields: fields, changed: changed, values: visible, editing: editing,
                                    visibility: visibility)
        check.changedFields = changedFields
        check.valuesAreTheGiven = !hasConditions
        return check
    }

    /// The values of the fields these values leave visible.
    public func visibleValues(_ values: [String: FieldValue], editing: Bool) -> [String: FieldValue] {
        guard hasConditions else { return values }
        return form.visibleValues(values, editing: editing)
    }

    // MARK: What is written

    /// A new record's values: every visible stored field (missing ones `.null`).
    public func insertValues(_ values: [String: FieldValue], editing: Bool) -> [String: FieldValue] {
        let hidden = hasConditions ? form.visibility(values: values, editing: editing) : nil
        // Every field stored and none hidden (an import's usual form): the values
        // themselves, once each stored key is there, hold exactly what is written.
        if hidden == nil && storedSlots.count == fields.count {
            var stored = values
            for slot in storedSlots where stored[fields[slot].key] == nil { stored[fields[slot].key] = .null }
            if stored.count == storedSlots.count { return stored }
        }
        var stored: [String: FieldValue] = [:]
        stored.reserveCapacity(storedSlots.count)
        for slot in storedSlots where hidden?.isHidden(fields[slot].key) != true {
            stored[fields[slot].key] = values[fields[slot].key] ?? .null
        }
        return stored
    }

    /// The stored fields whose value differs between `pristine` and `values`, in form order.
    public func changedStoredKeys(pristine: [String: FieldValue], values: [String: FieldValue]) -> [String] {
        storedSlots.compactMap { slot in
            let key = fields[slot].key
            return (values[key] ?? .null) != (pristine[key] ?? .null) ? key : nil
        }
    }

    /// Takes a record through every rule to what a save writes.
    ///
    /// - parameter isNew: a record not stored yet (`pristine` holds the defaults).
    /// - parameter pristine: the values as stored (or the defaults).
    /// - parameter values: the values after the inputs.
    /// - parameter given: the fields the inputs set whose value changed: each
    ///   must be editable (`refusal`) and visible. (A session passes none: it
    ///   refused each field as it was set.) Any changed field the values hide
    ///   is an error too (`hiddenChangeError`).
    /// - parameter editing: whether the form is being edited (edit mode); a
    ///   command's whole edit passes `true`.
    /// - parameter warnings: whether to work out the warnings (rules the
    ///   untouched values break); a caller that never shows them (an import)
    ///   passes `false` and gets none.
    public func plan(isNew: Bool, pristine: [String: FieldValue], values: [String: FieldValue], given: [String],
                     editing: Bool, warnings: Bool = true) -> RecordWritePlan {
        var refused: [FieldError] = []
        for key in given {
            guard let slot = slots[key], mayRefuse[slot] else { continue }
            let field = fields[slot]
            if let refusal = refusal(field, isNew: isNew, values: values, editing: editing)
                ?? hiddenRefusal(field, values: values, editing: editing) {
                refused.append(refusal.error)
            }
        }
        // A new record validates every field: which changed matters only to what is hidden.
        let changed = isNew && !hasConditions ? [] : changedStoredKeys(pristine: pristine, values: values)
        var failed = Set(refused.compactMap(\.field))
        // A save writes only visible fields: a change the values hide would be lost in silence.
        for key in changed where hasConditions && !failed.contains(key) {
            if let field = field(key), hiddenRefusal(field, values: values, editing: editing) != nil {
                refused.append(hiddenChangeError(field))
                failed.insert(key)
            }
        }
        let checked = isNew ? allKeys
            : Set(changed).union(revealedKeys(pristine: pristine, values: values, editing: editing))
        let report = warnings
            ? validate(changed: checked, values: values, editing: editing)
            : ValidationReport(errors: errors(changed: checked, isNew: isNew, values: values, editing: editing),
                               warnings: [])
        let errors = refused + report.errors.filter { $0.field.map { !failed.contains($0) } ?? true }
        guard errors.isEmpty else { return .invalid(RecordPipeline.inFormOrder(errors, of: self), warnings: report.warnings) }
        if isNew { return .insert(insertValues(values, editing: editing), warnings: report.warnings) }
        guard !changed.isEmpty else { return .unchanged(warnings: report.warnings) }
        var changes: [String: FieldValue] = [:]
        var base: [String: FieldValue] = [:]
        for key in changed {
            changes[key] = values[key] ?? .null
            base[key] = pristine[key] ?? .null
        }
        return .update(changes: changes, base: base, warnings: report.warnings)
    }

    /// Errors sorted by their field's place in the form (errors of the form as a whole last), stable.
    static func inFormOrder(_ errors: [FieldError], of pipeline: RecordPipeline) -> [FieldError] {
        errors.enumerated().sorted { a, b in
            (a.element.field.flatMap { pipeline.slots[$0] } ?? .max, a.offset)
                < (b.element.field.flatMap { pipeline.slots[$0] } ?? .max, b.offset)
        }.map(\.element)
    }
}
