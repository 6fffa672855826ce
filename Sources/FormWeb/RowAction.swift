public import FormCore

/// A row button of a page without script: a submit button named `_row`
/// whose value is `add 0 GROUP`, `remove N GROUP`, `up N GROUP` or
/// `down N GROUP` (N the row's place, from 1). The post carries everything
/// typed; the server applies it, takes the step, and draws the form again.
///
/// ```swift
/// let result = session.apply(submitted: body)
/// if let action = RowAction(body) { try session.perform(action, rows: result.postedRows) }
/// ```
public struct RowAction: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case add, remove, up, down
    }

    public var kind: Kind
    public var group: String
    /// The row's place among the posted rows, from 1 (0 for `add`).
    public var place: Int

    public init(kind: Kind, group: String, place: Int) {
        self.kind = kind
        self.group = group
        self.place = place
    }

    /// The action a post asks for, if it came from a row button.
    public init?(_ body: SubmittedForm) {
        guard let value = body.value("_row") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let kind = Kind(rawValue: String(parts[0])), let place = Int(parts[1]), place >= 0 else { return nil }
        self.init(kind: kind, group: String(parts[2]), place: place)
    }

    /// The `_row` value of this action's button.
    var buttonValue: String { "\(kind.rawValue) \(place) \(group)" }
}

extension FormSession {
    /// Takes a row button's step: adds a row at the end, or removes or moves
    /// the row at the posted place (`rows`: `SubmissionResult.postedRows`).
    ///
    /// Returns `false` when the post names no such row (a stale page): nothing is done.
    ///
    /// - throws: `SessionError` when the group cannot be changed now.
    @discardableResult
    public func perform(_ action: RowAction, rows posted: [String: [String?]]) throws -> Bool {
        if action.kind == .add {
            try addRow(action.group)
            return true
        }
        let places = posted[action.group] ?? []
        guard action.place >= 1, action.place <= places.count, let id = places[action.place - 1],
              let index = rows(action.group).firstIndex(where: { $0.id == id }) else { return false }
        switch action.kind {
        case .add: break
        case .remove: try removeRow(action.group, id)
        case .up, .down:
            // Past the row beside it on the person's page, found where it is now: a row someone
            // else deleted meanwhile is no longer there to pass, so the order stays (moving by
            // index moved it past a row the person never saw beside it).
            let beside = action.place - 1 + (action.kind == .up ? -1 : 1)
            guard places.indices.contains(beside), let other = places[beside],
                  let target = rows(action.group).firstIndex(where: { $0.id == other }) else { return true }
            guard action.kind == .up ? target < index : target > index else { return true }
            try moveRow(action.group, id, to: target)
        }
        return true
    }
}
