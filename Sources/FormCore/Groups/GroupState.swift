/// A session's rows of its repeating groups: as loaded (`pristine`), as
/// edited (`current`), raw inputs that did not parse and errors, per group key.
struct GroupState {
    var pristine: [String: [GroupRow]] = [:]
    var current: [String: [GroupRow]] = [:]
    /// Raw inputs that did not parse: row id → row field → text.
    var inputs: [String: [String: String]] = [:]
    /// Errors of row fields: row id → errors (`field` is the row field's key).
    var rowErrors: [String: [FieldError]] = [:]
    /// Errors of the group rules (rows, unique, sum) by group key, as the last
    /// save or `validateGroups()` found them.
    var ruleErrors: [String: [FieldError]] = [:]
    var nextRow = 0

    var hasInputs: Bool { inputs.values.contains { !$0.isEmpty } }

    /// A fresh row id for this session.
    mutating func newRowID() -> String {
        nextRow += 1
        return "r\(nextRow)"
    }
}
