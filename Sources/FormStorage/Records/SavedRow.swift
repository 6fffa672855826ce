import CSQLite
import FormCore

/// The row the last save on a connection left, kept so that the next save
/// of the same row, through the same mapping, need not read it back: when
/// nothing was written to the database since, by this connection or any
/// other, the row is this one with the next save's values written into it
/// (`TableMapping.rowAfterUpdate(of:written:values:over:)`). On a 200-column
/// row the read back was about a third of a save (issue 14).
///
/// "Nothing written since" is what SQLite's data version says
/// (`SQLITE_FCNTL_DATA_VERSION`, which changes with every change to the
/// file's content, this connection's or another's), taken when the save's
/// transaction commits. Until then the row is pending: a rollback (of the
/// transaction or of a savepoint in it) forgets it, and so does any row
/// changed after the save in the same transaction (`changesAfterSave`).
struct SavedRow {
    /// The mapping the record is laid out by (`TableMapping.identity`).
    let mapping: ObjectIdentifier
    let key: [DatabaseValue]
    let record: StoredRecord
    /// The connection's count of changed rows (`sqlite3_total_changes64`) right after the save.
    var changesAfterSave: Int64
    /// The main database's data version after the commit; `nil` while the save's transaction is open.
    var dataVersion: UInt32?
}

extension Connection {
    /// The main database's data version (`SQLITE_FCNTL_DATA_VERSION`), `nil` when SQLite cannot tell.
    var dataVersion: UInt32? {
        var version: UInt32 = 0
        let code = sqlite3_file_control(handle.pointer, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        return code == SQLITE_OK ? version : nil
    }

    /// Rows changed by this connection since it opened, triggers included.
    var totalChanges: Int64 { sqlite3_total_changes64(handle.pointer) }

    /// The record the last save of the row with `key` through `mapping`
    /// left, if nothing was written to the database since it committed;
    /// taken, not copied: the save about to write the row writes its
    /// values into it in place, and keeps the result instead (a copy of a
    /// 200-slot record and the old one's release were a sixth of a wide
    /// save, issue 14). Any other row kept is dropped too: a save replaces it.
    func takeRecordLeftByLastSave(_ mapping: ObjectIdentifier, key: [DatabaseValue]) -> StoredRecord? {
        guard let saved = savedRow.take(), saved.mapping == mapping, let version = saved.dataVersion,
              version == dataVersion, saved.key == key else { return nil }
        return saved.record
    }

    /// At a commit: a row saved in the transaction is kept with the data
    /// version it leaves, unless a row changed after it.
    func keepSavedRow() {
        guard var saved = savedRow, saved.dataVersion == nil else { return }
        saved.dataVersion = saved.changesAfterSave == totalChanges ? dataVersion : nil
        savedRow = saved.dataVersion == nil ? nil : saved
    }

    /// After a write in the save's transaction that changed no row of the
    /// saved row's table (its draft deleted): the row saved still stands.
    func savedRowStillStands() {
        if savedRow?.dataVersion == nil { savedRow?.changesAfterSave = totalChanges }
    }

    /// At the start of a transaction: a row left pending by one that did not
    /// go through `transaction(_:_:)` (its commit never seen) is dropped.
    func dropPendingSavedRow() {
        if savedRow?.dataVersion == nil { savedRow = nil }
    }
}
