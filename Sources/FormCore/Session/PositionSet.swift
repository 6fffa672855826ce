/// A set of slot (or field) positions out of a fixed count, kept as one flag
/// per position and the positions in the order they were added: adding one
/// a keystroke already holds costs a read of its flag, where a
/// `Set<String>` hashed the key every time (issue 14).
struct PositionSet {
    private var flags: [Bool]
    /// The positions in the set, in the order they were added.
    private(set) var positions: [Int] = []

    /// An empty set of positions out of `count`.
    init(count: Int) {
        flags = Array(repeating: false, count: count)
    }

    /// The positions of `elements` out of `count`.
    init(count: Int, _ elements: some Sequence<Int>) {
        self.init(count: count)
        for position in elements { insert(position) }
    }

    var isEmpty: Bool { positions.isEmpty }

    func contains(_ position: Int) -> Bool { flags[position] }

    mutating func insert(_ position: Int) {
        guard !flags[position] else { return }
        flags[position] = true
        positions.append(position)
    }

    /// The same positions without those `isIncluded` refuses.
    func filter(_ isIncluded: (Int) -> Bool) -> PositionSet {
        PositionSet(count: flags.count, positions.filter(isIncluded))
    }
}
