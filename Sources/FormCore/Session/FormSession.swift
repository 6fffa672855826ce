import FoundationEssentials

/// A form bound to one stored record (or a new one), edited and saved.
///
/// ```swift
/// let session = try FormSession.open(profileForm, key: RecordKey("id", 1), backend: store)
/// try session.beginEditing()                    // edit mode
/// try session.set("firstName", input: "  Ann ")  // parsed through the transformers
/// session.dirtyFields                            // ["firstName"]
/// switch try session.save() {
/// case .saved(let changed, _): print("saved", changed)
/// case .invalid(let errors): print(errors)
/// default: break
/// }
/// ```
///
/// The session keeps three sets of values: `pristine` (as loaded or last saved),
/// `current` (the model values being edited) and `inputs` (raw text that did not
/// parse). Dirty fields are computed, so typing the old value back makes a field
/// clean again. A session belongs to one task at a time; the backend it uses is
/// shared and thread-safe.
///
/// Its stored properties are marked `@exclusivity(unchecked)`: the run-time
/// check that no two accesses to one of them overlap cost a keystroke about
/// 1 k instructions (eleven checks, 15 % of it; issue 14). Nothing the
/// session runs while it modifies a property reaches back into it: observers
/// are called between changes, never inside one, and the compiler still
/// checks every overlap it can see.
public final class FormSession {
    /// The form, as compiled (`CompiledForm.of`): equal to the one the
    /// session was opened with, and kept once for all its sessions rather
    /// than copied into each (~0.5k instructions a load; issue 14).
    public var form: Form { compiled.form }
    public let backend: any FormBackend
    /// Where unsaved state is autosaved; `nil` keeps no drafts. The
    /// autosaver's store, made with it: an optional existential held here
    /// too was destroyed through its metadata at the end of every session,
    /// nil or not (issue 14).
    public var draftStore: (any DraftStore)? { autosaver?.store }
    /// Whose drafts this session writes and is offered (a service's user id);
    /// `nil` for the drafts nobody owns.
    public let owner: String?
    /// When the session writes its draft (see `DraftPolicy`).
    public let draftPolicy: DraftPolicy

    /// The record's key; `nil` until a new record is saved.
    @exclusivity(unchecked) public internal(set) var key: RecordKey?
    /// Values as loaded or last saved (built from `pristineValues` when read).
    public internal(set) var pristine: [String: FieldValue] {
        get { pristineValues.dictionary }
        set { pristineValues = RecordValues(newValue, layout: compiled.layout) }
    }
    /// Values as loaded or last saved, by slot of the compiled form's
    /// layout: dirty tracking and a save's adoption of the stored record
    /// compare slots, not `String` keys (issue 14).
    @exclusivity(unchecked) var pristineValues: RecordValues {
        didSet {
            draftBase = nil
            if !isTrackingEdits { editedSlots = nil }
        }
    }
    /// The values being edited. A session keeps the slots it opened with
    /// until the first change or read by name builds this dictionary: a load
    /// that only decodes a model never builds it (`FormSession+CurrentValues.swift`).
    public internal(set) var current: [String: FieldValue] {
        get { namedCurrent() }
        set {
            currentSlots = nil
            warningState.currentWillChange(currentByKey)
            currentByKey = newValue
            currentDidChange()
        }
        _modify {
            _ = namedCurrent()
            warningState.currentWillChange(currentByKey)
            defer { currentDidChange() }
            yield &currentByKey
        }
    }
    /// The current values while they are still the slots the session opened
    /// with; `nil` once `currentByKey` holds them.
    @exclusivity(unchecked) var currentSlots: RecordValues?
    /// The current values by key, once built (see `current`).
    @exclusivity(unchecked) var currentByKey: [String: FieldValue] = [:]

    private func currentDidChange() {
        if !isTrackingEdits { editedSlots = nil }
        currentValuesChanged()
    }

    /// What any change of the current values makes stale.
    private func currentValuesChanged() {
        visibilityMemo = nil
        draftRevision &+= 1
    }

    /// Sets one current value, whose slot the caller noted in `editedSlots`
    /// (`setCurrent`); returns the value it replaced.
    func updateCurrent(_ value: FieldValue, forKey key: String) -> FieldValue? {
        _ = namedCurrent()
        defer { currentValuesChanged() }
        let old = currentByKey.updateValue(value, forKey: key)
        // Asked of the extras in place: usually no deferred check follows
        // the current values, and changing `warningState` retained the extras.
        if extrasIfMade?.warningState.followsCurrent == true { warningState.noteOverwritten(key, was: old) }
        return old
    }
    /// Slots whose current value may differ from the pristine one: every slot
    /// an edit or a save set since the two were last compared whole. Dirty
    /// tracking walks these, not the form, so its cost follows what changed
    /// rather than the form's width; `nil` after a change made some other
    /// way, until the next walk finds them again (`FormSession+EditTracking.swift`).
    @exclusivity(unchecked) var editedSlots: PositionSet?
    /// Set while `editedSlots` is kept up to date by hand.
    @exclusivity(unchecked) var isTrackingEdits = false
    /// Fields a person changed or committed at least once.
    public internal(set) var touched: Set<String> {
        get { Set(touchedFields.positions.map { fields[$0].key }) }
        set { touchedFields = PositionSet(count: fields.count, newValue.compactMap(compiled.position(of:))) }
    }
    /// `touched` by position in `compiled.fields`: a keystroke marks its
    /// field with no key hashed (`touch(at:)`).
    @exclusivity(unchecked) var touchedFields: PositionSet

    /// Marks the field at `position` (in `compiled.fields`) touched.
    func touch(at position: Int) { touchedFields.insert(position) }

    /// Marks the field with `key` touched (a key no field has is ignored).
    func touch(_ key: String) {
        if let position = compiled.position(of: key) { touch(at: position) }
    }
    /// What a save of a stored record validates; `.changes` unless opened
    /// through `bound(to:)`.
    @exclusivity(unchecked) public var saveValidation: SaveValidation = .changes
    /// Rules that values nobody changed already break in the stored record, as
    /// the last `save()` or `validateChanges()` found them, in form order. They
    /// do not stop a save; a caller may show them (see `ValidationReport`).
    /// A session nobody observes works them out when this is read (`SessionWarnings`).
    public internal(set) var warnings: [FieldError] {
        get { warningState.list(in: compiled, current: namedCurrent()) }
        set { warningState.set(newValue) }
    }
    /// In edit mode: between `beginEditing()` and save or cancel.
    @exclusivity(unchecked) public internal(set) var isEditing: Bool {
        didSet { visibilityMemo = nil }
    }
    /// The version column's value as loaded or last saved.
    @exclusivity(unchecked) public internal(set) var baseVersion: Int64?
    /// What few sessions use (inputs, errors, undo, drafts offered,
    /// observers, groups...), made on first use (`FormSession+Extras.swift`).
    @exclusivity(unchecked) var extrasIfMade: SessionExtras?

    @exclusivity(unchecked) var draftCreatedAt: Date?
    /// Whether a draft with `draftID` may have been written (or restored):
    /// a save or cancel deletes one only then.
    @exclusivity(unchecked) var draftMayExist = false
    /// Writes the drafts; made only with a draft store.
    let autosaver: DraftAutosaver?
    let autosavePolicy: DraftAutosaver.Policy
    /// Where drafts went when the store failed (looked up only when needed).
    var fallbackDrafts: (any DraftStore)? { autosavePolicy.fallback }
    /// The form prepared once for all its sessions (fields in order, keys by
    /// position, conditions): walking its sections per session or per
    /// keystroke showed in profiles.
    let compiled: CompiledForm
    var fields: [Field] { compiled.fields }
    /// The rules every write follows (`RecordPipeline`), prepared once per form.
    public var pipeline: RecordPipeline { compiled.pipeline }
    /// Keys of the stored fields, and of the fields a draft keeps (not secure):
    /// what dirty tracking and drafts walk on every keystroke, kept compact.
    var storedKeys: [String] { compiled.storedKeys }
    var draftKeys: [String] { compiled.draftKeys }
    /// Which fields the current values hide, kept until they or the editing
    /// state change: every visibility question of one change shares one walk.
    @exclusivity(unchecked) private var visibilityMemo: FormVisibility?
    /// A draft's `base` (the pristine stored values), kept until `pristine` changes.
    @exclusivity(unchecked) var draftBase: [String: FieldValue]?
    /// Counts changes of the state a draft holds (values, inputs, rows), and
    /// the count when the autosaver last took all of it: a keystroke on a
    /// session nothing else changed since then hands over one field
    /// (`FormSession+Drafts.swift`).
    @exclusivity(unchecked) var draftRevision = 0
    @exclusivity(unchecked) var draftHandedRevision: Int?
    /// The key last set and its field's position (`position(ofEdited:)`).
    @exclusivity(unchecked) var lastEdited: (key: String, position: Int)?

    convenience init(form: Form, backend: any FormBackend, draftStore: borrowing (any DraftStore)?, key: RecordKey?,
                     values: [String: FieldValue], version: Int64?, owner: String?, draftPolicy: DraftPolicy,
                     autosave: DraftAutosaver.Policy, groups: [String: [[String: FieldValue]]] = [:]) {
        self.init(form: form, backend: backend, draftStore: draftStore, key: key,
                  values: RecordValues(values, layout: CompiledForm.of(form).layout), version: version, owner: owner,
                  draftPolicy: draftPolicy, autosave: autosave, groups: groups)
    }

    init(form: Form, backend: any FormBackend, draftStore: borrowing (any DraftStore)?, key: RecordKey?,
         values: RecordValues, version: Int64?, owner: String?, draftPolicy: DraftPolicy,
         autosave: DraftAutosaver.Policy, groups: [String: [[String: FieldValue]]] = [:],
         compiled: CompiledForm? = nil) {
        let compiled = compiled ?? CompiledForm.of(form)
        self.compiled = compiled
        self.backend = backend
        self.owner = owner
        self.draftPolicy = draftPolicy
        self.key = key
        let values = values.laidOut(by: compiled.layout)
        self.pristineValues = values
        self.currentSlots = values
        editedSlots = PositionSet(count: compiled.layout.keys.count)
        touchedFields = PositionSet(count: compiled.fields.count)
        self.baseVersion = version
        // A new record has nothing to look at first: in edit mode it starts editing.
        self.isEditing = form.mode == .edit && key == nil
        self.autosavePolicy = autosave
        // Most sessions have no draft store (a service's request, a command).
        // Each copy of the optional existential goes through its metadata
        // (~150 instructions with its destroy): the inits borrow it, where
        // an init's owned argument was a copy, and nil is told apart before
        // it is stored or an autosaver made of it (issue 14).
        if draftStore == nil {
            autosaver = nil
        } else {
            // Mapped, not unwrapped with `if let`, which made one more copy.
            autosaver = (copy draftStore).map { DraftAutosaver(store: $0, policy: autosave) }
        }
        loadGroups(groups)
    }

    deinit {
        autosaver?.flush()
        // The kept slots share one array, emptied here where it is freed
        // (`RecordValues.releaseValues`).
        currentSlots = nil
        pristineValues.releaseValues()
    }

    /// Opens the stored record with `key`, offering the drafts `owner` has of it.
    ///
    /// - parameter owner: whose drafts are offered and written (a service's
    ///   user id); `nil` for the drafts nobody owns.
    /// - parameter draftPolicy: when drafts are written (`.none` for a one-shot request).
    /// - throws: `FormDefinitionError` when the form's definition has a mistake
    ///   (checked here, where the form is used); `SessionError` (`.notFound`)
    ///   when there is no such record; the backend's error when it cannot be read.
    public static func open(_ form: Form, key: RecordKey, backend: any FormBackend,
                            drafts: (any DraftStore)? = nil, owner: String? = nil,
                            draftPolicy: DraftPolicy = .autosave,
                            autosave: DraftAutosaver.Policy = .init()) throws -> FormSession {
        let compiled = try checkedCompile(form)
        guard let record = try backend.load(form, key: key) else {
            throw SessionError.notFound(form, key)
        }
        let session = FormSession(opened: record, form: form, compiled: compiled, backend: backend, drafts: drafts,
                                  owner: owner, draftPolicy: draftPolicy, autosave: autosave)
        // Told apart from nil first: `if let` copied the optional existential
        // through its metadata even when it was nil. The key is the
        // session's, so the record is handed to it, not copied (issue 14).
        if drafts != nil, let drafts { session.offer(try drafts.drafts(form: form.name, key: session.key, owner: owner)) }
        return session
    }

    /// The form compiled, its definition checked: the first step of either
    /// `open`. Compiled once per open: its check and the session share it.
    static func checkedCompile(_ form: Form) throws -> CompiledForm {
        let compiled = CompiledForm.of(form)
        if let problem = compiled.definitionProblem { throw problem }
        return compiled
    }

    /// A session on a record just loaded, as either `open` makes it.
    /// It borrows the record: taken as an init's owned argument, the whole
    /// optional record was copied through its metadata and destroyed again
    /// (~500 instructions a load, issue 14); only its parts are copied now.
    convenience init(opened record: borrowing StoredRecord, form: Form, compiled: CompiledForm, backend: any FormBackend,
                     drafts: borrowing (any DraftStore)?, owner: String?, draftPolicy: DraftPolicy,
                     autosave: DraftAutosaver.Policy) {
        self.init(form: form, backend: backend, draftStore: drafts, key: record.key, values: record.slotValues,
                  version: record.version, owner: owner, draftPolicy: draftPolicy, autosave: autosave,
                  groups: record.groups, compiled: compiled)
    }

    /// Offers the drafts found for the record, and the owner's in the fallback files.
    func offer(_ found: [Draft]) {
        // Opening only reads: expired drafts are not offered, and the autosaver
        // deletes them with its first write (so a read-only or locked database still opens).
        let expiry = autosavePolicy.expiryDate
        // The fallback files hold every database's drafts: only this store's are offered.
        let fallen = ((try? autosavePolicy.fallback?.drafts(form: form.name, key: key, owner: owner)) ?? [])
            .filter { draftStore?.owns($0) ?? ($0.database == nil) }
        offeredDrafts = Draft.newestCopies((found + fallen).filter { $0.updatedAt >= expiry })
    }

    /// Starts a new record, its fields at their defaults.
    public static func new(_ form: Form, backend: any FormBackend, drafts: (any DraftStore)? = nil,
                           owner: String? = nil, draftPolicy: DraftPolicy = .autosave,
                           autosave: DraftAutosaver.Policy = .init()) -> FormSession {
        var values: [String: FieldValue] = [:]
        for field in form.fields where field.holdsValue {
            values[field.key] = field.defaultValue
        }
        return FormSession(form: form, backend: backend, draftStore: drafts, key: nil, values: values,
                           version: nil, owner: owner, draftPolicy: draftPolicy, autosave: autosave)
    }

    /// The first field with this key, like `form.field(_:)`.
    func field(_ key: String) -> Field? { compiled.field(key) }

    // MARK: Reading

    /// A field's current model value (`.null` when it has none).
    public func value(_ key: String) -> FieldValue { currentValue(key) ?? .null }

    /// A field's value as loaded or last saved (`.null` when it has none):
    /// read from its slot, where `pristine[key]` builds the whole dictionary first.
    public func pristineValue(_ key: String) -> FieldValue { pristineValues[key] ?? .null }

    /// What a person sees in the field: the raw input when it did not parse,
    /// else the model value formatted through the field's transformers.
    public func text(_ key: String) -> String {
        if let raw = inputs[key] { return raw }
        guard let field = field(key) else { return "" }
        return field.format(value(key))
    }

    /// The errors shown beside a field.
    public func errors(_ key: String) -> [FieldError] { fieldErrors[key] ?? [] }

    /// The warnings about a field's stored value (see `warnings`).
    public func warnings(_ key: String) -> [FieldError] { warnings.filter { $0.field == key } }

    /// Every error, field errors in form order first.
    public var allErrors: [FieldError] {
        // Usually no field has an error: no walk over the form (every save asks,
        // and walking 200 fields was an eighth of a 200-field save).
        (hasFieldErrors ? fields.flatMap { errors($0.key) } : []) + groupErrors + formErrors
    }

    /// Stored fields whose current value differs from the pristine one.
    public var dirtyFields: [String] { dirtyFields(changedSlots: changedSlots()) }

    /// `dirtyFields` of the slots `changedSlots()` found.
    func dirtyFields(changedSlots slots: [Int]) -> [String] {
        let keys = compiled.layout.keys
        return slots.compactMap { compiled.isStoredSlot[$0] ? keys[$0] : nil }
    }

    /// Whether any stored field is dirty (drafts ask on every keystroke).
    public var isDirty: Bool {
        changedSlots().contains { compiled.isStoredSlot[$0] } || areGroupsDirty
    }

    /// Whether a field's current value differs from its pristine one.
    func isChanged(_ key: String) -> Bool { (currentValue(key) ?? .null) != (pristineValues[key] ?? .null) }

    /// Dirty fields, or typed inputs that did not parse.
    public var hasUnsavedChanges: Bool {
        isDirty || hasInputs || (hasGroups && groupState.hasInputs) || extrasIfMade?.unsettledDraft.isEmpty == false
    }

    /// The warning to show before unsaved changes are thrown away; `nil` when
    /// there is nothing to lose or the form turned the warning off.
    public var unsavedChangesWarning: String? {
        hasUnsavedChanges ? form.unsavedChangesWarning : nil
    }

    /// Whether a field is shown, given the current values.
    public func isVisible(_ key: String) -> Bool {
        guard field(key) != nil else { return false }
        return !visibility.isHidden(key)
    }

    /// The hidden fields for the current values, worked out once per change.
    public var visibility: FormVisibility {
        if let visibilityMemo { return visibilityMemo }
        guard compiled.hasHiddenConditions else { return .nothingHidden }
        let found = form.visibility(values: current, editing: isEditing)
        visibilityMemo = found
        return found
    }

    /// The fields shown now, in order (a Delete button may appear only while editing).
    public var visibleFields: [Field] {
        let hidden = visibility
        return fields.filter { !hidden.isHidden($0.key) }
    }

    /// The values of the visible fields: what a save writes or a result returns.
    public var values: [String: FieldValue] { values(of: visibleFields) }

    /// The values of these fields (those that hold one).
    func values(of shown: [Field]) -> [String: FieldValue] {
        var result: [String: FieldValue] = [:]
        result.reserveCapacity(shown.count)
        for field in shown where field.holdsValue {
            result[field.key] = value(field.key)
        }
        return result
    }

    // MARK: Observing

    /// Calls `handler` for every event until the returned token is cancelled.
    @discardableResult
    public func observe(_ handler: @escaping (SessionEvent) -> Void) -> SessionObservation {
        let id = UUID()
        observers[id] = handler
        return SessionObservation { [weak self] in self?.observers[id] = nil }
    }

    /// Tells every observer. The event is made only when someone listens:
    /// most sessions (a service's request, a command) have no observer.
    func emit(_ event: @autoclosure () -> SessionEvent) {
        guard hasObservers else { return }
        let event = event()
        for handler in observers.values { handler(event) }
    }
}

@available(*, unavailable)
extension FormSession: Sendable {}

/// Stops an observation when cancelled; it otherwise lasts as long as the session.
public final class SessionObservation {
    private var onCancel: (() -> Void)?

    init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}
