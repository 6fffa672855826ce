/// A form prepared once for every session opened on it: its fields in order
/// and where each key is, the keys dirty tracking and drafts walk, whether any
/// field has a condition, and the definition's first problem.
///
/// ```swift
/// let compiled = CompiledForm.of(form)   // the same object for the same form
/// compiled.position(of: "email")          // 3
/// ```
///
/// Kept per form, not per session: a service opens a session per request, and
/// walking the form's sections, building the key index and checking the
/// definition showed in profiles of `FormSession.open`. A form is found as
/// `FormCache` finds it.
public final class CompiledForm: Sendable {
    public let form: Form
    /// Every field, in order (`form.fields`).
    public let fields: [Field]
    /// Keys of the stored fields that hold a value: what dirty tracking compares.
    public let storedKeys: [String]
    /// Keys of the fields a draft keeps (holding a value, not secure).
    public let draftKeys: [String]
    /// Keys of the fields that hold a value: what a session validates (a
    /// walk over the keys does not copy each `Field`, which a save's profile showed).
    public let valueKeys: [String]
    /// The slots of a record of this form: one per field that holds a value,
    /// in form order. A store reads rows into it, a session keeps its
    /// pristine values in it (`RecordValues`).
    public let layout: RecordLayout
    /// The slot (in `layout`) of each of `storedKeys`, in the same order:
    /// dirty tracking walks these, not the keys.
    public let storedSlots: [Int]
    /// Whether each slot of `layout` is a stored field's.
    public let isStoredSlot: [Bool]
    /// The slot (in `layout`) of each field, by position in `fields`; `nil`
    /// for a field that holds no value. A keystroke finds its slot here
    /// from the position it already looked up, with no second key hashed.
    public let slotOfField: [Int?]
    /// Whether some field has a `hiddenWhen`: when none does, nothing is ever
    /// hidden and no visibility needs working out.
    public let hasHiddenConditions: Bool
    /// The definition's first mistake, found once (`Form.checkDefinition()`).
    public let definitionProblem: FormDefinitionError?
    /// The rules every write of this form follows (`RecordPipeline`).
    public let pipeline: RecordPipeline
    /// Whether each field (by position) takes a change whatever the values,
    /// the record's newness and editing: no condition disables it and
    /// neither it nor the mode refuses it. A keystroke in such a field skips
    /// asking the pipeline (`RecordPipeline.refusal`), which showed in its profile.
    public let isAlwaysEditable: [Bool]
    /// Each of `fields` in a box of its own, by position: a keystroke holds
    /// its field by reference, one retain, where copying the struct retained
    /// and released its fourteen counted parts (about 650 instructions; issue 14).
    let boxedFields: [FieldBox]
    private let positions: [String: Int]
    /// Each field's `allTransforms`, by position: built once, not per keystroke.
    private let transforms: [[Transform]]
    /// The form's repeating groups (`Form.groups`), found once: every open
    /// walked the sections for them (issue 14).
    let groups: [RowGroup]

    init(_ form: Form) {
        self.form = form
        fields = form.fields
        groups = form.groups
        boxedFields = fields.map(FieldBox.init)
        positions = Dictionary(fields.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        storedKeys = fields.filter { $0.isStored && $0.holdsValue }.map(\.key)
        draftKeys = fields.filter { $0.holdsValue && !$0.isSecure }.map(\.key)
        valueKeys = fields.filter(\.holdsValue).map(\.key)
        let pipeline = RecordPipeline(form)
        self.pipeline = pipeline
        // The pipeline's slots (the fields holding a value, the first of a
        // repeated key) are the record's: an import's slots go straight to storage.
        let layout = pipeline.layout
        self.layout = layout
        storedSlots = storedKeys.map { layout.position(of: $0)! }
        var isStoredSlot = Array(repeating: false, count: layout.keys.count)
        for slot in storedSlots { isStoredSlot[slot] = true }
        self.isStoredSlot = isStoredSlot
        slotOfField = fields.map { $0.holdsValue ? layout.position(of: $0.key) : nil }
        hasHiddenConditions = fields.contains { $0.hiddenWhen != nil }
        transforms = fields.map(\.allTransforms)
        definitionProblem = form.definitionProblems.first
        // A stored record's key is read-only where a new one's is not, and
        // an edit form refuses only before editing: the stricter case of each.
        isAlwaysEditable = fields.map { field in
            field.disabledWhen == nil && pipeline.fixedRefusal(field, isNew: false) == nil
                && pipeline.modeRefusal(field, editing: false) == nil
        }
    }

    /// Where the first field with `key` is in `fields`.
    public func position(of key: String) -> Int? { positions[key] }

    /// The first field with `key`, like `form.field(_:)`.
    public func field(_ key: String) -> Field? { positions[key].map { fields[$0] } }

    /// Parses what a person typed into `field` (this form's field with its
    /// key, as the caller already holds it), as `field.parse(_:)` does,
    /// through its transforms made once. Parsing the caller's field, not
    /// `fields[position]`, spares a keystroke a copy of the field.
    /// `position`: the field's (`position(of:)`).
    func parse(_ input: String, field: Field, at position: Int) -> Result<FieldValue, FieldError> {
        field.parse(.text(input), through: transforms[position], messages: MessageOverrides(), typed: true)
    }

    /// The compiled form of `form`: made on first use, then shared.
    public static func of(_ form: Form) -> CompiledForm {
        if let found = cache.value(for: form) { return found }
        let compiled = CompiledForm(form)
        cache.keep(compiled, for: form)
        return compiled
    }

    private static let cache = FormCache<CompiledForm>()
}

/// One field of a compiled form, held by reference (`CompiledForm.boxedFields`).
final class FieldBox: Sendable {
    let field: Field
    init(_ field: Field) { self.field = field }
}
