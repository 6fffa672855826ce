import CSQLite
import FormCore
import FormStorage

/// What a save must do whatever does it, done in C: the floor under the save cases.
extension InProcessCases {
    /// A session's save against the C API doing the same transaction: read
    /// the row (the conflict check), `UPDATE … RETURNING` the row, insert the
    /// history's change and field rows, commit. Against a bare `UPDATE` (the
    /// `save` case) the ratio counts this work too; against this one it shows
    /// what FormStore adds on top of it.
    func saveFloor(_ path: String, _ synchronous: Configuration.Synchronous, atMost limit: Double) throws -> ResultRow {
        let store = try openStore(path, synchronous: synchronous)
        let raw = try RawConnection(path: path, synchronous: synchronous.rawValue)
        let columns = Person.columns.map(\.name).joined(separator: ", ")
        let begin = try raw.prepare("BEGIN IMMEDIATE")
        let select = try raw.prepare(Person.selectSQL)
        let update = try raw.prepare("UPDATE \(Person.table) SET city = ? WHERE id = ? RETURNING \(columns)")
        let change = try raw.prepare("""
            INSERT INTO formstore_changes (form, record_key, changed_at, actor, via) VALUES (?, ?, ?, NULL, 'library')
            """)
        let field = try raw.prepare("""
            INSERT INTO formstore_change_fields (change_id, field, old_value, new_value, secure) VALUES (?, 'city', ?, ?, 0)
            """)
        let commit = try raw.prepare("COMMIT")
        let session = try FormSession.open(Person.form, key: RecordKey("id", 1), backend: store)
        let (rounds, perRound) = saveRounds(synchronous)
        let paired = try interleavedSaves(session, field: "city", rounds: rounds, perRound: perRound) { city in
            try begin.run()
            sqlite3_bind_int64(select.pointer, 1, 2)
            guard sqlite3_step(select.pointer) == SQLITE_ROW else { throw BenchError("no row") }
            let before = Person(row: select)
            sqlite3_reset(select.pointer)
            sqlite3_bind_text(update.pointer, 1, city, -1, formstore_sqlite3_transient())
            sqlite3_bind_int64(update.pointer, 2, 2)
            guard sqlite3_step(update.pointer) == SQLITE_ROW else { throw BenchError("no row") }
            let after = Person(row: update)
            try update.run()
            sqlite3_bind_text(change.pointer, 1, Person.table, -1, formstore_sqlite3_transient())
            sqlite3_bind_text(change.pointer, 2, "{\"id\":2}", -1, formstore_sqlite3_transient())
            sqlite3_bind_text(change.pointer, 3, "2026-01-01T00:00:00.000Z", -1, formstore_sqlite3_transient())
            try change.run()
            sqlite3_bind_int64(field.pointer, 1, sqlite3_last_insert_rowid(raw.db))
            sqlite3_bind_text(field.pointer, 2, before.city, -1, formstore_sqlite3_transient())
            sqlite3_bind_text(field.pointer, 3, after.city, -1, formstore_sqlite3_transient())
            try field.run()
            try commit.run()
        }
        return .ratio("save (synchronous=\(synchronous.rawValue)) vs the same transaction in C (read, update, history)",
                      paired, unit: "µs", scale: 1e6, atMost: limit)
    }
}
