/// A record's values laid out by slot (`RecordLayout`): what a store reads a
/// row into and a session keeps as its pristine values (issue 14).
///
/// A key the layout has no slot for (a key or version column that no field
/// names, a key of a dictionary-made record) is kept beside the slots, so
/// nothing a store read is lost; the dictionary form (`dictionary`) is built
/// only when someone asks for it.
///
/// ```swift
/// var values = RecordValues(layout: CompiledForm.of(form).layout)
/// values["email"] = .text("ada@example.com")
/// values.dictionary   // ["email": "ada@example.com"]
/// ```
public struct RecordValues: Sendable {
    public let layout: RecordLayout
    /// One value per slot of `layout`; `nil` where the record has none.
    public var slots: [FieldValue?]
    /// Values of keys `layout` has no slot for.
    public var others: [String: FieldValue] = [:]

    /// A record with no values yet.
    public init(layout: RecordLayout) {
        self.layout = layout
        // Appended into reserved room, not `Array(repeating:count:)`, which
        // allocates through the standard library's unspecialized path and
        // looks up the array's metadata on every call (issue 14).
        slots = []
        slots.reserveCapacity(layout.keys.count)
        for _ in layout.keys { slots.append(nil) }
    }

    /// A record holding `slots`, one value (or nil) per slot of `layout`.
    public init(layout: RecordLayout, slots: [FieldValue?]) {
        precondition(slots.count == layout.keys.count, "a record needs one slot per key of its layout")
        self.layout = layout
        self.slots = slots
    }

    /// The values of a dictionary laid out by `layout` (`.empty`: all beside the slots).
    public init(_ values: [String: FieldValue], layout: RecordLayout = .empty) {
        self.init(layout: layout)
        guard !layout.keys.isEmpty else {
            others = values
            return
        }
        for (key, value) in values { self[key] = value }
    }

    /// The value of `key`; setting one the layout has no slot for keeps it beside the slots.
    public subscript(key: String) -> FieldValue? {
        get {
            if let position = layout.position(of: key) { return slots[position] }
            return others.isEmpty ? nil : others[key]
        }
        set {
            if let position = layout.position(of: key) { slots[position] = newValue } else { others[key] = newValue }
        }
    }

    /// The value of `key`, its slot looked for first just after the slot
    /// `previous` (`RecordLayout.position(of:under:near:)`), hashed only when
    /// it is not there.
    public func value(of key: String, near previous: Int) -> FieldValue? {
        if let position = layout.position(of: key, under: "", near: previous) { return slots[position] }
        return others.isEmpty ? nil : others[key]
    }

    /// The values by key, as a dictionary: built when asked, from the
    /// layout's dictionary of every key, each slot's value written by index.
    /// Inserting the keys one by one hashed each: 12k instructions for 20
    /// fields, on the first edit of every session opened, set and saved
    /// (a service's request; issue 14).
    public var dictionary: [String: FieldValue] {
        guard !slots.isEmpty else { return others }
        var result = layout.keyed
        let indices = layout.keyedIndices
        var empty: [Int] = []
        for index in slots.indices {
            if let value = slots[index] { result.values[indices[index]] = value } else { empty.append(index) }
        }
        // Removing a key moves others in the table, so the empty slots' keys
        // go last, after every write by index.
        for index in empty { result.removeValue(forKey: layout.keys[index]) }
        for (key, value) in others { result[key] = value }
        return result
    }

    /// The same values laid out by `layout` (no copy when they already are).
    public func laidOut(by layout: RecordLayout) -> RecordValues {
        if layout === self.layout { return self }
        return RecordValues(dictionary, layout: layout)
    }

    /// Takes the slots out one by one, each value destroyed by code made
    /// for `FieldValue`, and leaves none: an array of them freed whole is
    /// destroyed by the standard library's generic code, through four
    /// value-witness calls a slot, empty or not (~1.9k instructions for 20
    /// fields at the end of every session; issue 14). Only for a record about
    /// to be freed. Slots shared with another record are copied first, as
    /// any change would.
    mutating func releaseValues() {
        while !slots.isEmpty { slots.removeLast() }
    }

    /// Whether the record has no value at all.
    public var isEmpty: Bool { others.isEmpty && !slots.contains { $0 != nil } }
}

extension RecordValues: Hashable {
    /// Records are equal when they hold the same values by key, however laid out.
    public static func == (lhs: RecordValues, rhs: RecordValues) -> Bool {
        if lhs.layout === rhs.layout { return lhs.slots == rhs.slots && lhs.others == rhs.others }
        return lhs.dictionary == rhs.dictionary
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(dictionary) }
}
