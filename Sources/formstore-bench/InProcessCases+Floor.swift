import CSQLite
import FormCore
import FormStorage

/// What a save must do whatever does it, done in C: the floor under the save cases.
extension InProcessCases {
    /// A session's save against the C API doing the same transaction: read
    /// the row (the conflict check), `UPDATE` it and read it back, insert the
    /// history's change and field rows, commit. (The read back is a `SELECT`,
    /// as FormStore's is: SQLite's `UPDATE … RETURNING` cost more, most of
    /// all on a wide row.) Against a bare `UPDATE` (the
    /// `save` case) the ratio counts this work too; against this one it shows
    /// what FormStore adds on top of it.
    func saveFloor(_ path: String, _ synchronous: Configuration.Synchronous, atMost limit: Double) throws -> ResultRow {
        let (rounds, perRound) = saveRounds(synchronous)
        let paired = try floorSaves(path, synchronous, form: Person.form, columns: Person.columns.map(\.name),
                                    field: "city", rounds: rounds, perRound: perRound) { statement in
            Person(row: statement).city
        }
        return .ratio("save (synchronous=\(synchronous.rawValue)) vs the same transaction in C (read, update, history)",
                      paired, unit: "µs", scale: 1e6, atMost: limit)
    }

    /// `saveFloor` on the 200-field form: the C side reads and returns all
    /// 200 columns, as the session's save does.
    func wideSaveFloor(_ path: String, _ synchronous: Configuration.Synchronous, atMost limit: Double) throws -> ResultRow {
        let columns = ["id"] + (1..<WideForm.fieldCount).map(WideForm.key)
        let paired = try floorSaves(path, synchronous, form: WideForm.form, columns: columns, field: WideForm.key(2),
                                    rounds: size.pick(smoke: 1, quick: 15, full: 31),
                                    perRound: size.pick(smoke: 1, quick: 200, full: 500)) { statement in
            WideForm.Row(statement).texts[2]!
        }
        return .ratio("save, 200-field form (synchronous=\(synchronous.rawValue)) vs the same transaction in C",
                      paired, unit: "µs", scale: 1e6, atMost: limit)
    }

    /// A session's save of `field` on `form` against that transaction in C:
    /// each side reads its row with `columns` into `decode`, which returns
    /// the field's text (for the history's old and new values).
    private func floorSaves(_ path: String, _ synchronous: Configuration.Synchronous, form: Form, columns: [String],
                            field: String, rounds: Int, perRound: Int,
                            decode: @escaping (RawStatement) -> String) throws -> Paired {
        let store = try openStore(path, synchronous: synchronous)
        let raw = try RawConnection(path: path, synchronous: synchronous.rawValue)
        let table = form.name
        let list = columns.joined(separator: ", ")
        let begin = try raw.prepare("BEGIN IMMEDIATE")
        let select = try raw.prepare("SELECT \(list) FROM \(table) WHERE id = ?")
        let update = try raw.prepare("UPDATE \(table) SET \(field) = ? WHERE id = ?")
        let history = try RawHistoryRows(raw)
        let commit = try raw.prepare("COMMIT")
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        let read = { () throws -> String in
            sqlite3_bind_int64(select.pointer, 1, 2)
            guard sqlite3_step(select.pointer) == SQLITE_ROW else { throw BenchError("no row") }
            defer { sqlite3_reset(select.pointer) }
            return decode(select)
        }
        return try interleavedSaves(session, field: field, rounds: rounds, perRound: perRound) { text in
            try begin.run()
            let before = try read()
            sqlite3_bind_text(update.pointer, 1, text, -1, formstore_sqlite3_transient())
            sqlite3_bind_int64(update.pointer, 2, 2)
            try update.run()
            let after = try read()
            try history.write(form: table, key: "{\"id\":2}", field: field, old: before, new: after)
            try commit.run()
        }
    }
}
