/// What a save writes to one repeating group: the rows to insert, the stored
/// rows to update (only their changed columns) and to delete. Each update and
/// delete carries the values it was based on, checked inside the transaction:
/// a row changed or deleted by someone else meanwhile is a conflict.
public struct GroupChanges: Sendable, Hashable {
    public var group: String
    /// New rows' values, in row order (order column included when the group has one).
    public var inserts: [[String: FieldValue]] = []
    public var updates: [RowUpdate] = []
    /// Stored rows removed, with the values they were loaded with.
    public var deletes: [RowUpdate] = []
    /// For a group without key columns (an array in a model): every row as it
    /// is now, replacing the stored array, which must still be `base`.
    public var replacement: [[String: FieldValue]]? = nil
    public var base: [[String: FieldValue]]? = nil
    /// By row key, the stored form each column is written in where it holds
    /// the value written (an undo's: the bytes the save replaced or deleted,
    /// `WrittenForms.rows`); a store writes any other value in the column's form.
    public var storedForms: [RecordKey: [String: FieldValue]] = [:]

    public init(group: String) { self.group = group }

    public var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty && replacement == nil }

    /// Why a new row naming `key` is refused when a row of `table` holds it
    /// already, under another parent (a row is not moved by a group's array).
    public static func keyTaken(_ table: String, _ key: RecordKey) -> String {
        "\(table) \(key) is a row of another record: a new row cannot take its key "
            + "(a row moves by its own foreign key); nothing was saved"
    }
}

/// One stored row's change: its key, the columns written and their loaded values.
public struct RowUpdate: Sendable, Hashable {
    public var key: RecordKey
    public var changes: [String: FieldValue]
    public var base: [String: FieldValue]

    public init(key: RecordKey, changes: [String: FieldValue], base: [String: FieldValue]) {
        self.key = key
        self.changes = changes
        self.base = base
    }

    /// The conflicts of this change with the row as stored now (`nil`: the row
    /// is gone), named `group[key].field`; for a delete (`changes` empty) any
    /// column moved away from its base.
    public func conflicts(group: String, stored: [String: FieldValue]?) -> [FieldConflict] {
        let row = GroupPath.row(group, key)
        guard let stored else {
            // Deleted on both sides: the same change, no conflict (the delete finds nothing to delete).
            guard !changes.isEmpty else { return [] }
            return [FieldConflict(field: row, base: .text("stored"), mine: .text("changed"), theirs: .text("deleted"))]
        }
        if changes.isEmpty {
            return base.keys.sorted().compactMap { column in
                let was = base[column] ?? .null, now = stored[column] ?? .null
                return was == now ? nil : FieldConflict(field: "\(row).\(column)", base: was, mine: .text("deleted"), theirs: now)
            }
        }
        return SaveBase(version: nil, values: base).conflicts(changes: changes, stored: stored).map {
            var conflict = $0
            conflict.field = "\(row).\(conflict.field)"
            return conflict
        }
    }
}

/// How a row and its fields are named in errors and conflicts.
public enum GroupPath {
    /// A stored row: `lines[7]`, `tracks[playlist_id=1,track_id=9]`.
    public static func row(_ group: String, _ key: RecordKey) -> String { "\(group)[\(key)]" }
    /// A row by its place (1-based), as a person counts: `lines[#2].amount`.
    public static func position(_ group: String, _ position: Int, _ field: String? = nil) -> String {
        "\(group)[#\(position)]" + (field.map { ".\($0)" } ?? "")
    }
}
