/// Where each key of a record sits among its slots (`RecordValues`): made
/// once per form (`CompiledForm.layout`, the fields that hold a value, in
/// form order) and shared by every record of it, so a store reads a row's
/// columns straight into their slots and a session compares two records slot
/// by slot, with no `String` hashed.
///
/// ```swift
/// let layout = CompiledForm.of(form).layout
/// layout.position(of: "email")   // 3
/// ```
public final class RecordLayout: Sendable {
    /// The keys, one per slot.
    public let keys: [String]
    private let positions: [String: Int]
    /// Every key, each with `.null`, and the index of each slot's key in it:
    /// a record's dictionary is this one copied, its values written by index,
    /// with no key hashed (`RecordValues.dictionary`). Copying a dictionary
    /// keeps its indices valid, and writing a value through one changes no
    /// other.
    let keyed: [String: FieldValue]
    let keyedIndices: [Dictionary<String, FieldValue>.Index]

    /// A layout of these keys; a repeated key keeps its first slot.
    public init(keys: [String]) {
        var unique: [String] = []
        var positions: [String: Int] = [:]
        for key in keys where positions[key] == nil {
            positions[key] = unique.count
            unique.append(key)
        }
        self.keys = unique
        self.positions = positions
        let keyed = [String: FieldValue](uniqueKeysWithValues: unique.lazy.map { ($0, FieldValue.null) })
        self.keyed = keyed
        keyedIndices = unique.map { keyed.index(forKey: $0)! }
    }

    /// The slot of `key`, or `nil` for a key the layout does not hold.
    public func position(of key: String) -> Int? { positions[key] }

    /// The slot of the dotted key `prefix.name` (`name` when `prefix` is
    /// empty), looked for first just after the slot `previous` and at it: a
    /// decoder asking for keys in the layout's order finds each with one
    /// string comparison, and hashes only the keys asked out of order.
    ///
    /// ```swift
    /// layout.position(of: "city", under: "address", near: 3)   // 4, when keys[4] is "address.city"
    /// ```
    public func position(of name: String, under prefix: String, near previous: Int) -> Int? {
        let next = previous + 1
        if next < keys.count, Self.key(keys[next], is: name, under: prefix) { return next }
        if previous >= 0, previous < keys.count, Self.key(keys[previous], is: name, under: prefix) { return previous }
        return positions[prefix.isEmpty ? name : "\(prefix).\(name)"]
    }

    /// Whether `key` is `prefix.name`, without building that string.
    @inline(__always)
    private static func key(_ key: String, is name: String, under prefix: String) -> Bool {
        if prefix.isEmpty { return key == name }
        // Bytes, not characters: a spelling equal only canonically is left
        // to the hashed lookup, which finds it the way a dictionary would.
        let bytes = key.utf8
        guard bytes.count == prefix.utf8.count + 1 + name.utf8.count, bytes.starts(with: prefix.utf8) else { return false }
        let rest = bytes.dropFirst(prefix.utf8.count)
        return rest.first == UInt8(ascii: ".") && rest.dropFirst().elementsEqual(name.utf8)
    }

    /// A layout with no slots: the values of a record made from a dictionary
    /// (`StoredRecord(key:values:)`) are all kept beside the slots.
    public static let empty = RecordLayout(keys: [])

    /// The layout of `form`'s records: a slot for each field that holds a
    /// value, in form order (a repeated key keeps its first). Made on first
    /// use, then shared by the compiled form, its pipeline and every store
    /// mapping the form, so their records are laid out alike. A store reads
    /// rows with it before anything compiles the form: a command that only
    /// reads (`show`) does not build the write pipeline (issue 14).
    public static func of(_ form: Form) -> RecordLayout {
        if let found = cache.value(for: form) { return found }
        var keys: [String] = []
        for field in form.fields where field.holdsValue { keys.append(field.key) }
        let layout = RecordLayout(keys: keys)
        cache.keep(layout, for: form)
        return layout
    }

    private static let cache = FormCache<RecordLayout>()
}

extension RecordLayout: Hashable {
    /// Layouts of the same keys in the same order are the same layout.
    public static func == (lhs: RecordLayout, rhs: RecordLayout) -> Bool { lhs === rhs || lhs.keys == rhs.keys }
    public func hash(into hasher: inout Hasher) { hasher.combine(keys) }
}
