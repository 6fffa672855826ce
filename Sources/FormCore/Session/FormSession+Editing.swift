import FormBasics

/// Editing values, and what each edit mode allows.
extension FormSession {
    /// Why `field` cannot be changed now, or `nil` when it can.
    public func whyNotEditable(_ key: String) -> String? {
        guard let field = field(key) else { return "is not a field of \(form.name)" }
        return whyNotEditable(field)
    }

    private func whyNotEditable(_ field: Field) -> String? {
        compiled.pipeline.refusal(field, isNew: self.key == nil, values: current, editing: isEditing)?.why
    }

    /// Sets a field from what a person typed: parsed through the field's
    /// transformers, validated as its timing says, and autosaved to the draft.
    /// Input that does not parse is kept as typed, with its error.
    ///
    /// In free mode a valid change is saved at once; the outcome says how it went.
    ///
    /// - throws: `SessionError` when the field is unknown or the mode or field
    ///   does not allow the change now.
    @discardableResult
    public func set(_ key: String, input: String) throws -> SaveOutcome? {
        // The key is looked up once, for the field, its transforms and its slot.
        let position = try editablePosition(key, at: position(ofEdited: key))
        // The field is lent from its box, not copied out (`CompiledForm.boxedFields`):
        // only while the box is known to live does the compiler lend it.
        let box = compiled.boxedFields[position]
        return try withExtendedLifetime(box) { try set(box.field, at: position, input: input) }
    }

    private func set(_ field: Field, at position: Int, input: String) throws -> SaveOutcome? {
        let key = field.key
        // Usually no input is pending: no lookup for one.
        let inputBefore = hasInputs ? inputs[key] : nil
        let handed = draftBeforeEdit
        switch compiled.parse(input, field: field, at: position) {
        case .success(var value):
            if inputBefore != nil { inputs[key] = nil }
            if case .date = value { value = field.keepingStoredDate(value, stored: pristineValue(key), typed: true) }
            // Text a number's column holds, typed again as shown (`Infinity` kept as text in a REAL
            // column), is the stored text: no change, where it parsed as the float and was rewritten.
            if !field.kind.holdsText, case .text(let stored) = pristineValue(key), stored.hasSameUTF8(as: input) {
                value = .text(stored)
            }
            // So is a number a column of no type holds, typed again as shown into its text field.
            if field.kind.holdsText, case .text = value, let stored = Self.storedNumber(pristineValue(key), typedAs: input, field: field) {
                value = stored
            }
            // Empty text over a field holding nothing is what the field shows: it stays nothing (NULL),
            // where it would write '' the person never typed. A NOT NULL field's '' is a value.
            if case .text(let text) = value, text.isEmpty, !field.isNotNull, case .null = pristineValue(key) {
                value = .null
            }
            return try apply(value, to: field, at: position, inputBefore: inputBefore, draftHanded: handed)
        case .failure(let error):
            // What the column holds, typed again as shown (`n/a` in a REAL column): the stored value, no change.
            if let stored = Self.storedValue(pristineValue(key), typedAs: input, field: field) {
                if inputBefore != nil { inputs[key] = nil }
                return try apply(stored, to: field, at: position, inputBefore: inputBefore, draftHanded: handed)
            }
            keep(field, at: position, input: input, error: error, inputBefore: inputBefore, draftHanded: handed)
            return nil
        }
    }

    /// Keeps what a person typed, with why it is refused, as input that does
    /// not parse is kept: for a front end that reads input its own way too (an
    /// ISO 8601 date the field's format does not take) and refused it there.
    /// The value stays; the input is in the draft and fails the save.
    ///
    /// - throws: `SessionError` when the field is unknown or cannot be changed now.
    public func keep(_ key: String, input: String, refusedWith error: FieldError) throws {
        let position = try editablePosition(key, at: position(ofEdited: key))
        let box = compiled.boxedFields[position]
        withExtendedLifetime(box) {
            keep(box.field, at: position, input: input, error: error,
                 inputBefore: hasInputs ? inputs[key] : nil, draftHanded: draftBeforeEdit)
        }
    }

    private func keep(_ field: Field, at position: Int, input: String, error: FieldError, inputBefore: String?,
                      draftHanded handed: Bool) {
        let key = field.key
        // The value stays: the step is the input typed over it.
        let kept = value(key)
        let saves = savesSoFar
        defer {
            endUndoStep(key, before: .init(value: kept, input: inputBefore), after: .init(value: kept, input: input),
                        saves: saves)
        }
        inputs[key] = input
        let revision = draftRevision
        touch(at: position)
        setErrors([error], for: key)
        emit(.valueChanged(field: key))
        draftChanged(field: field, handed: handed, revision: revision)
    }

    /// `stored` when it is a number (an INTEGER or REAL in a column of no
    /// type, read into a text field) and `input` is it as shown, or as JSON
    /// and `export` write it (`1.0`): no change.
    static func storedNumber(_ stored: FieldValue, typedAs input: String, field: Field) -> FieldValue? {
        let written: String
        switch stored {
        case .int(let integer): written = String(integer)
        case .double(let real): written = real.description
        default: return nil
        }
        return input == written || field.format(stored).hasSameUTF8(as: input) ? stored : Optional.none
    }

    /// `stored` when `input` is it as shown or named, though the field would
    /// not parse it: text the column holds (`n/a` in a REAL column), a float's
    /// infinity or NaN (`inf`, or `Infinity` as JSON names it), a number the
    /// field would refuse as typed (`2.5` in an INTEGER column). For a field
    /// and for a row's cell.
    static func storedValue(_ stored: FieldValue, typedAs input: String, field: Field) -> FieldValue? {
        // (Not `? stored : nil`: FieldValue takes `nil` as its own `.null`, which that would give.)
        let shown: Bool
        switch stored {
        case .null: shown = false
        case .text(let text): shown = text.hasSameUTF8(as: input)
        case .double(let number) where !number.isFinite && ValueBytes.nonFiniteName(number) == input: shown = true
        default: shown = field.format(stored) == input
        }
        return shown ? stored : Optional.none
    }

    /// Where the field with `key` is in `compiled.fields`. A person types
    /// many keystrokes into one field: the last key asked for is kept, so
    /// the next keystroke compares it rather than hashing it (issue 14).
    private func position(ofEdited key: String) -> Int? {
        if let last = lastEdited, last.key == key { return last.position }
        let found = compiled.position(of: key)
        if let found { lastEdited = (key, found) }
        return found
    }

    /// Sets a field's model value directly (no parsing). A choice is named by
    /// its value or its label, never its position: the choice's own value is
    /// kept (`.double(2)` or `"2"` for the choice `.int(2)`). A value of another
    /// kind than the field's is converted where nothing is lost (`Field.coerce`)
    /// and refused otherwise; the stored value is always taken back.
    ///
    /// - throws: `SessionError` when the field is unknown or cannot be changed
    ///   now; a `FieldError` (code `kind`) for a value the field cannot hold,
    ///   which changes nothing.
    @discardableResult
    public func set(_ key: String, value: FieldValue) throws -> SaveOutcome? {
        let position = try editablePosition(key, at: position(ofEdited: key))
        let box = compiled.boxedFields[position]
        return try withExtendedLifetime(box) { try set(box.field, at: position, value: value) }
    }

    /// `set(_:value:)`, the value to be written in the stored form `stored`
    /// where that holds it: a revert puts back the value its history kept
    /// as the column held it (a bool's `2`, JSON text as it was spaced),
    /// not the value written anew in the column's form (`1`).
    @discardableResult
    public func set(_ key: String, value: FieldValue, storedAs stored: FieldValue) throws -> SaveOutcome? {
        extras.storedForms[key] = stored
        return try set(key, value: value)
    }

    /// Puts back a value the column held, as its history kept it (a
    /// revert's): in the stored form `stored` (when the store keeps one), and taken as it is where the
    /// field's kind would refuse it as typed (`2.5` in an INTEGER column, `n/a`
    /// in a REAL one), since the column held it so. What it breaks is a
    /// warning at the save, as a stored value's is, not an error.
    @discardableResult
    public func restore(_ key: String, value: FieldValue, storedAs stored: FieldValue? = nil) throws -> SaveOutcome? {
        if let stored { extras.storedForms[key] = stored }
        extras.heldValues[key] = value
        let position = try editablePosition(key, at: position(ofEdited: key))
        let box = compiled.boxedFields[position]
        return try withExtendedLifetime(box) { try set(box.field, at: position, value: value, asHeld: true) }
    }

    private func set(_ field: Field, at position: Int, value: FieldValue, asHeld: Bool = false) throws -> SaveOutcome? {
        let key = field.key
        let given = field.choiceValue(value)
        // What is stored is what the column holds, whatever the form guessed of it.
        let stored = pristineValues[key] ?? .null
        var taken = given
        if given != stored {
            // As held, a value the kind refuses is kept; else the refusal is thrown.
            taken = asHeld ? ((try? field.coerce(given, messages: form.messages)) ?? given)
                           : try field.coerce(given, messages: form.messages)
        }
        if case .date = taken { taken = field.keepingStoredDate(taken, stored: stored, typed: false) }
        let handed = draftBeforeEdit
        let inputBefore = hasInputs ? inputs.removeValue(forKey: key) : nil
        return try apply(taken, to: field, at: position, inputBefore: inputBefore, draftHanded: handed)
    }

    /// A person picks one choice, as a tap on a picker, a segment or a button of
    /// a group does: a choice field takes it, or is cleared when it already held
    /// it and allows deselecting; a multichoice field adds it, or removes it
    /// when it was selected.
    ///
    /// - throws: `SessionError` for a field that is not a choice or multichoice,
    ///   or that cannot be changed now.
    @discardableResult
    public func select(_ key: String, choice: FieldValue) throws -> SaveOutcome? {
        let field = try editableField(key)
        switch field.kind {
        case .choice:
            let clears = field.allowsDeselect && value(key) == choice
            return try set(key, value: clears ? .null : choice)
        case .multichoice:
            var selected = value(key).listValue ?? []
            if let index = selected.firstIndex(of: choice) { selected.remove(at: index) } else { selected.append(choice) }
            return try set(key, value: .list(selected))
        default:
            throw SessionError.notEditable(field, "is not a choice: set its value instead")
        }
    }

    /// Marks a field as committed (the person left it): runs checks timed `onCommit`.
    public func commit(_ key: String) {
        undoSteps.closeRun()
        guard let field = field(key), inputs[key] == nil else { return }
        touch(key)
        if field.effectiveTiming(in: form) != .onSave { validateField(field) }
    }

    /// Edit mode: makes the form editable until save or cancel.
    public func beginEditing() throws {
        guard form.mode == .edit else {
            throw SessionError.mode("beginEditing is for edit mode; \(form.name) is in \(form.mode.rawValue) mode")
        }
        guard !isEditing else { throw SessionError.mode("\(form.name) is already being edited") }
        isEditing = true
        emit(.editingChanged(isEditing: true))
    }

    func editableField(_ key: String) throws -> Field {
        compiled.fields[try editablePosition(key, at: compiled.position(of: key))]
    }

    /// Where the field `editableField(_:)` finds is in `compiled.fields`,
    /// given the key's position already looked up. The caller reads the
    /// field there: returning it (in a tuple) cost a keystroke an optional
    /// `Field` made and taken apart besides the copy (issue 14).
    private func editablePosition(_ key: String, at position: Int?) throws -> Int {
        guard let position else { throw SessionError.unknownField(key, form: form) }
        if !compiled.isAlwaysEditable[position], let why = whyNotEditable(compiled.fields[position]) {
            throw SessionError.notEditable(compiled.fields[position], why)
        }
        return position
    }

    /// Sets the parsed `value` of `field` (at `position` in `compiled.fields`),
    /// whose typed input, `inputBefore`, is already dropped; records the undo
    /// step from the values it knows (the one replaced comes back from `setCurrent`).
    private func apply(_ value: FieldValue, to field: Field, at position: Int, inputBefore: String?,
                       draftHanded: Bool) throws -> SaveOutcome? {
        let key = field.key
        let replaced = setCurrent(value, for: key, atSlot: compiled.slotOfField[position])
        let old = replaced ?? .null
        let saves = savesSoFar
        defer { endUndoStep(key, before: .init(value: old, input: inputBefore), after: .init(value: value), saves: saves) }
        let revision = draftRevision
        touch(at: position)
        let timing = field.effectiveTiming(in: form)
        if form.mode == .free || timing == .onChange || (hasFieldErrors && fieldErrors[key] != nil) {
            validateField(field, value: value)
        }
        if replaced != value { emit(.valueChanged(field: key)) }
        if form.mode == .free { return try saveField(field) }
        draftChanged(field: field, handed: draftHanded, revision: revision)
        return nil
    }

    /// Free mode: a valid change is written at once, alone; an invalid one stays.
    private func saveField(_ field: Field) throws -> SaveOutcome? {
        guard errors(field.key).isEmpty else { draftChanged(); return nil }
        guard field.isStored, key != nil else { return nil }
        // The value it holds already (a choice picked again): nothing to write.
        guard isChanged(field.key) else { return .unchanged }
        return try write(only: [field.key])
    }

    /// Runs a field's checks, and the form rules that blame it. `value`: the
    /// field's current value when the caller holds it (else it is looked up).
    @discardableResult
    func validateField(_ field: Field, value known: FieldValue? = nil) -> [FieldError] {
        // Gathering the visible values walks every field: only when a check reads them.
        let visible = form.validationReadsOtherValues(field) ? values : [:]
        // Without conditions nothing is hidden: no visibility asked for.
        let isHidden = compiled.hasHiddenConditions && visibility.isHidden(field.key)
        var found = isHidden
            ? [] : form.validate(field: field, value: known ?? value(field.key), values: visible, editing: isEditing)
        if found.isEmpty && !form.rules.isEmpty {
            found = form.validateRules(values: visible, editing: isEditing).filter { $0.field == field.key }
        }
        // Nothing found and no warnings: either way below comes to no errors
        // and no warnings, so whether the field changed need not be looked up.
        if found.isEmpty && warningsAreKnownEmpty {
            setErrors([], for: field.key)
            return []
        }
        // A stored value nobody changed only warns, as it will at save (see `SaveValidation`).
        let warnsOnly = key != nil && saveValidation == .changes && !isChanged(field.key) && inputs[field.key] == nil
        if warnsOnly {
            setErrors([], for: field.key)
            replaceWarnings(of: field.key, with: found)
            return []
        }
        replaceWarnings(of: field.key, with: nil)
        setErrors(found, for: field.key)
        return found
    }

    /// The field's warnings become `found` (kept in field order), or none
    /// (`nil`); deferred warnings stay deferred (`SessionWarnings`).
    private func replaceWarnings(of key: String, with found: [FieldError]?) {
        guard hasObservers else { return warningState.replace(key, with: found, in: compiled) }
        setWarnings(SessionWarnings.replacing(key, with: found, in: warnings, compiled))
    }

    /// Marks the field `key` refused by `error` from past the form (the
    /// database's CHECK on its column): shown beside it as its own errors
    /// are, until its value changes and it is validated again.
    public func refuse(_ key: String, with error: FieldError) {
        setErrors(errors(key) + [error], for: key)
    }

    func setErrors(_ errors: [FieldError], for key: String) {
        // Usually no field has an error: no key hashed to find none.
        let old = hasFieldErrors ? fieldErrors[key] ?? [] : []
        // None before, none now: no second lookup to remove nothing.
        if old.isEmpty && errors.isEmpty { return }
        fieldErrors[key] = errors.isEmpty ? nil : errors
        if old != errors { emit(.validationChanged(field: key)) }
    }
}
