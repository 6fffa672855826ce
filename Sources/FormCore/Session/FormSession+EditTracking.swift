/// Which fields changed, found from the keys edited rather than by walking
/// the form: a keystroke or save on a 200-field form then costs about what
/// it does on a 20-field one (issue 14).
///
/// `editedKeys` holds every key whose current value may differ from its
/// pristine one. An edit made through `setCurrent` or inside `trackingEdits`
/// adds its key; any other change to `current` or `pristineValues` forgets
/// the set, and the next question walks every slot once to find it again.
extension FormSession {
    /// Sets one current value, noting its key; returns the value it replaced.
    @discardableResult
    func setCurrent(_ value: FieldValue, for key: String) -> FieldValue? {
        trackingEdits(CollectionOfOne(key)) { $0.current.updateValue(value, forKey: key) }
    }

    /// Runs `change`, which changes `current` or `pristineValues` only at
    /// `keys` (or at keys it adds itself through `setCurrent`), keeping `editedKeys`.
    func trackingEdits<T>(_ keys: some Sequence<String>, _ change: (FormSession) -> T) -> T {
        let wasTracking = isTrackingEdits
        isTrackingEdits = true
        defer { isTrackingEdits = wasTracking }
        if editedKeys != nil {
            for key in keys { editedKeys!.insert(key) }
        }
        return change(self)
    }

    /// The slots (in `compiled.layout`) whose current value differs from the
    /// pristine one, in form order.
    func changedSlots() -> [Int] {
        let keys = compiled.layout.keys
        guard let edited = editedKeys else {
            let changed = keys.indices.filter { slotChanged($0) }
            editedKeys = Set(changed.map { keys[$0] })
            return changed
        }
        if edited.isEmpty { return [] }
        return edited.compactMap { key in
            compiled.layout.position(of: key).flatMap { slotChanged($0) ? $0 : nil }
        }.sorted()
    }

    /// Forgets edited keys whose value is the pristine one again (after a save).
    func pruneEditedKeys() {
        guard let edited = editedKeys, !edited.isEmpty else { return }
        editedKeys = edited.filter(isChanged)
    }

    private func slotChanged(_ slot: Int) -> Bool {
        (currentValue(atSlot: slot) ?? .null) != (pristineValues.slots[slot] ?? .null)
    }
}
