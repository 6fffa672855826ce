/// How `draft restore` settles a field changed both in the draft and in the
/// record since the draft was made: keep mine (the draft's value) or theirs
/// (the value stored now). A conflict with no choice stops the restore.
struct ConflictChoice: Sendable, Hashable {
    enum Side: String, Sendable, Hashable, CaseIterable {
        case mine, theirs
    }

    /// For every conflicting field not named in `fields`.
    var all: Side?
    /// By field key; wins over `all`.
    var fields: [String: Side] = [:]

    /// No choice made: every conflict stops the restore (exit 75).
    static let none = ConflictChoice(all: nil)

    func side(for field: String) -> Side? { fields[field] ?? all }
}
