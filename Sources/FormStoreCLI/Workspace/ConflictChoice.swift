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

    /// The side for a conflict's field: its own choice, else its group's
    /// for a row or a row's cell (`lines=theirs` settles `lines[10].amount`),
    /// else the choice for all.
    func side(for field: String) -> Side? {
        if let own = fields[field] { return own }
        if let open = field.firstIndex(of: "["), let group = fields[String(field[..<open])] { return group }
        return all
    }
}
