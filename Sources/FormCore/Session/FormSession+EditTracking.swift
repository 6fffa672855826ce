/// Which fields changed, found from the slots edited rather than by walking
/// the form: a keystroke or save on a 200-field form then costs about what
/// it does on a 20-field one (issue 14).
///
/// `editedSlots` holds every slot (of `compiled.layout`) whose current value
/// may differ from its pristine one. An edit made through `setCurrent` or
/// inside `trackingEdits` adds its slot; any other change to `current` or
/// `pristineValues` forgets the set, and the next question walks every slot
/// once to find it again. A key with no slot is never a changed field.
extension FormSession {
    /// Sets one current value, noting its key; returns the value it replaced.
    @discardableResult
    func setCurrent(_ value: FieldValue, for key: String) -> FieldValue? {
        setCurrent(value, for: key, atSlot: compiled.layout.position(of: key))
    }

    /// `setCurrent(_:for:)` with the key's slot already looked up.
    func setCurrent(_ value: FieldValue, for key: String, atSlot slot: Int?) -> FieldValue? {
        if let slot { editedSlots?.insert(slot) }
        return updateCurrent(value, forKey: key)
    }

    /// Runs `change`, which changes `current` or `pristineValues` only at
    /// `keys` (or at keys it adds itself through `setCurrent`), keeping `editedSlots`.
    func trackingEdits<T>(_ keys: some Sequence<String>, _ change: (FormSession) -> T) -> T {
        let wasTracking = isTrackingEdits
        isTrackingEdits = true
        defer { isTrackingEdits = wasTracking }
        if editedSlots != nil {
            for key in keys {
                if let slot = compiled.layout.position(of: key) { editedSlots!.insert(slot) }
            }
        }
        return change(self)
    }

    /// The slots (in `compiled.layout`) whose current value differs from the
    /// pristine one, in form order.
    func changedSlots() -> [Int] {
        guard let edited = editedSlots else {
            let changed = compiled.layout.keys.indices.filter { slotChanged($0) }
            editedSlots = PositionSet(count: compiled.layout.keys.count, changed)
            return changed
        }
        if edited.isEmpty { return [] }
        return edited.positions.filter { slotChanged($0) }.sorted()
    }

    /// Forgets edited slots whose value is the pristine one again (after a save).
    func pruneEditedSlots() {
        guard let edited = editedSlots, !edited.isEmpty else { return }
        editedSlots = edited.filter { slotChanged($0) }
    }

    private func slotChanged(_ slot: Int) -> Bool {
        (currentValue(atSlot: slot) ?? .null) != (pristineValues.slots[slot] ?? .null)
    }
}
