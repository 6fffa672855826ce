import FormCore

/// A row as a save reads it: the decoded record, and the stored value of
/// each column read, exactly as SQLite holds it.
///
/// The conflict check, the `UPDATE`'s stored forms and the history's diff
/// look these values up by position in the mapping's `columns`; a
/// dictionary by column name per row read was a tenth of a save's
/// instructions (issue 14).
struct StoredRow {
    var record: StoredRecord
    /// The stored values read: by position in `columns` for a whole row,
    /// else one per entry of `positions`, in the same order.
    private(set) var stored: [DatabaseValue]
    /// The positions in `columns` read, in increasing order, when the row was
    /// read in part (`TableMapping.rowToUpdate(from:positions:)`); `nil`:
    /// every column. A save of one field of a 200-column row reads three,
    /// and kept a 200-wide array of placeholders per row before (issue 14).
    let positions: [Int]?

    /// A row read whole: `stored` by position in `columns`.
    init(record: StoredRecord, stored: [DatabaseValue]) {
        self.record = record
        self.stored = stored
        positions = nil
    }

    /// A row read in part: `stored[i]` is the value of the column at `positions[i]`.
    init(record: StoredRecord, stored: [DatabaseValue], positions: [Int]) {
        precondition(stored.count == positions.count, "one stored value per position read")
        self.record = record
        self.stored = stored
        self.positions = positions
    }

    /// Whether every column was read.
    var isWhole: Bool { positions == nil }

    /// The stored value of the column at `position` in `columns`; `nil` when it was not read.
    func stored(at position: Int) -> DatabaseValue? {
        offset(of: position).map { stored[$0] }
    }

    /// Whether the column at `position`, read in both rows, holds the same
    /// stored value in `other`: compared where the values are, not copied
    /// out (on a wide form a save's history compares nearly every column).
    func holdsSameStored(at position: Int, as other: StoredRow) -> Bool {
        guard let offset = offset(of: position), let otherOffset = other.offset(of: position) else { return false }
        return stored[offset] == other.stored[otherOffset]
    }

    /// Sets the stored value of the column at `position`; `false` when it was not read.
    mutating func setStored(_ value: DatabaseValue, at position: Int) -> Bool {
        guard let offset = offset(of: position) else { return false }
        stored[offset] = value
        return true
    }

    /// The stored values by column name (what a batch's callers take); a
    /// row read in part has only the columns read.
    func storedByColumn(_ mapping: TableMapping) -> [String: DatabaseValue] {
        let names = positions.map { $0.map { mapping.columns[$0] } } ?? mapping.columns
        return Dictionary(zip(names, stored), uniquingKeysWith: { first, _ in first })
    }

    /// Where the value of the column at `position` is in `stored`: found by
    /// halving the increasing `positions` of a row read in part.
    private func offset(of position: Int) -> Int? {
        guard let positions else { return position }
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low < positions.count && positions[low] == position ? low : nil
    }
}
