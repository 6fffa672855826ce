/// A set of slot (or field) positions out of a fixed count, kept as one flag
/// per position and the positions in the order they were added: adding one
/// a keystroke already holds costs a read of its flag, where a
/// `Set<String>` hashed the key every time (issue 14).
struct PositionSet {
    let count: Int
    /// One flag per position; empty until the first insertion, so a session
    /// that is opened and only read allocates none (issue 14).
    private var flags: [Bool] = []
    /// The positions in the set, in the order they were added.
    private(set) var positions: [Int] = []

    /// An empty set of positions out of `count`.
    init(count: Int) {
        self.count = count
    }

    /// The positions of `elements` out of `count`.
    init(count: Int, _ elements: some Sequence<Int>) {
        self.init(count: count)
        for position in elements { insert(position) }
    }

    var isEmpty: Bool { positions.isEmpty }

    func contains(_ position: Int) -> Bool {
        precondition(position >= 0 && position < count, "position out of range")
        return !flags.isEmpty && flags[position]
    }

    mutating func insert(_ position: Int) {
        if flags.isEmpty { flags = Array(repeating: false, count: count) }
        guard !flags[position] else { return }
        flags[position] = true
        positions.append(position)
    }

    /// The same positions without those `isIncluded` refuses.
    func filter(_ isIncluded: (Int) -> Bool) -> PositionSet {
        PositionSet(count: count, positions.filter(isIncluded))
    }
}
