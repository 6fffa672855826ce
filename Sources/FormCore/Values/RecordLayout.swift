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
    }

    /// The slot of `key`, or `nil` for a key the layout does not hold.
    public func position(of key: String) -> Int? { positions[key] }

    /// A layout with no slots: the values of a record made from a dictionary
    /// (`StoredRecord(key:values:)`) are all kept beside the slots.
    public static let empty = RecordLayout(keys: [])
}

extension RecordLayout: Hashable {
    /// Layouts of the same keys in the same order are the same layout.
    public static func == (lhs: RecordLayout, rhs: RecordLayout) -> Bool { lhs === rhs || lhs.keys == rhs.keys }
    public func hash(into hasher: inout Hasher) { hasher.combine(keys) }
}
