import FoundationEssentials

extension RecordPipeline {
    /// What `plan(isNew: true, …)` comes to for a new record laid out by
    /// slot (`layout`): the same refusals, checks and stored values, with no
    /// dictionary of the values built where none is needed. An import plans
    /// every row through it.
    ///
    /// ```swift
    /// var values = pipeline.defaultValues
    /// values.slots[pipeline.slot("title")!] = .text("Printer jam")
    /// if case .insert(let row) = pipeline.planInsert(values, given: [pipeline.slot("title")!], editing: true) { … }
    /// ```
    ///
    /// - parameter given: the slots the input set to a value other than the
    ///   default (each must be editable, as `plan`'s `given`).
    /// - returns: the row to insert (every stored field, missing ones
    ///   `.null`), or the errors in form order. No warnings are worked out.
    public func planInsert(_ values: RecordValues, given: [Int], editing: Bool) -> RecordInsertPlan {
        // A condition, an `equalTo` or a form rule reads the other values: they need the dictionary the rules take.
        guard readsOnlyOwnValues, values.layout === layout else {
            switch plan(isNew: true, pristine: defaults, values: values.dictionary, given: given.map { fields[$0].key },
                        editing: editing, warnings: false) {
            case .insert(let row, _): return .insert(RecordValues(row, layout: layout))
            case .invalid(let errors, _): return .invalid(errors)
            case .update, .unchanged: preconditionFailure("a new record's plan inserts or refuses")
            }
        }
        var refused: [FieldError] = []
        for slot in given where mayRefuseNew[slot] {
            // With no conditions the values change no refusal: none are passed.
            // The field read in place: `fields[slot]` copied it (and retained its every string), per row.
            if let found = fields.withUnsafeBufferPointer({ refusal($0[slot], isNew: true, values: [:], editing: editing) }) {
                refused.append(found.error)
            }
        }
        // The closure reads a local: capturing `self` copied the whole pipeline per row.
        let slots = formFieldSlots
        let checked = form.failures(of: formFields, checked: checkedFields, editing: editing, now: Date()) {
            values.slots[slots[$0]!] ?? .null
        }
        // A row with no error (an import's usual one) builds no set of the refused fields.
        if !refused.isEmpty || !checked.isEmpty {
            let failed = Set(refused.compactMap(\.field))
            let errors = refused + checked.filter { $0.field.map { !failed.contains($0) } ?? true }
            return .invalid(RecordPipeline.inFormOrder(errors, of: self))
        }
        // Every stored slot holding a value and no other (an import's usual row): the values as they are, not copied.
        // Through the buffer: `values.slots[$0] != nil` copied each value to look at it, per slot.
        let isStoredRow = values.others.isEmpty && values.slots.withUnsafeBufferPointer { slots in
            !slots.indices.contains { slot in
                if case .none = slots[slot] { return isStoredSlot[slot] }
                return !isStoredSlot[slot]
            }
        }
        guard !isStoredRow else { return .insert(values) }
        var row = values
        row.others = [:]
        for slot in row.slots.indices {
            row.slots[slot] = isStoredSlot[slot] ? row.slots[slot] ?? .null : nil
        }
        return .insert(row)
    }
}

/// What a new record's save comes to (`RecordPipeline.planInsert`).
public enum RecordInsertPlan: Sendable {
    /// Every stored field's value, by slot.
    case insert(RecordValues)
    /// Refused: the errors in form order; nothing is written.
    case invalid([FieldError])
}
