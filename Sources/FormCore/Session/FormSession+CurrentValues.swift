/// The current values read without building the dictionary `current`: a
/// session opens with its values as the store's slots (`RecordValues`) and
/// keeps them so until the first change or read of `current` (issue 14).
/// Reading a value by key or slot, dirty tracking and `model(as:)` go
/// through these, so a load that only decodes a model hashes no key per field.
extension FormSession {
    /// The current value of `key`, from the slots while they are kept.
    func currentValue(_ key: String) -> FieldValue? {
        if let currentSlots { return currentSlots[key] }
        return currentByKey[key]
    }

    /// The current value at `slot` of the compiled form's layout.
    func currentValue(atSlot slot: Int) -> FieldValue? {
        if let currentSlots { return currentSlots.slots[slot] }
        return currentByKey[compiled.layout.keys[slot]]
    }

    /// The current values laid out by the compiled form's layout (the kept
    /// slots themselves, with no copy, until `current` is built).
    var currentRecord: RecordValues {
        currentSlots ?? RecordValues(currentByKey, layout: compiled.layout)
    }

    /// The current values by key, built from the kept slots on first read.
    func namedCurrent() -> [String: FieldValue] {
        if let currentSlots {
            currentByKey = currentSlots.dictionary
            self.currentSlots = nil
        }
        return currentByKey
    }
}
