/// A row of a repeating group that another writer changed, added or deleted,
/// as `FormSession.takeExternalChanges()` took it into an open session.
public struct ExternalRowChange: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// These cells, left alone here, took the stored values.
        case changed(fields: [String])
        /// A row stored by someone else now shows in the group.
        case added
        /// A row nobody touched here was deleted by someone else and is gone.
        case deleted
    }

    public var group: String
    /// The stored row's key.
    public var key: RecordKey
    /// The row's id in the session (`nil` for a deleted row).
    public var row: String?
    public var kind: Kind

    public init(group: String, key: RecordKey, row: String?, kind: Kind) {
        self.group = group
        self.key = key
        self.row = row
        self.kind = kind
    }

    /// How the row is named in messages and conflicts: `lines[7]`.
    public var path: String { GroupPath.row(group, key) }
}

/// A row conflict flagged before any save: which session row and cell
/// (`column` is `nil` for the row as a whole: changed here and deleted there,
/// or deleted here and changed there) and the conflict as reported.
struct ExternalRowConflict {
    var group: String
    var row: String
    var column: String?
    var conflict: FieldConflict
    /// Their row, for a row changed there and removed here.
    var stored: [String: FieldValue]? = nil
}
