import CSQLite
import FormCore
import FormStorage

/// Keystroke and save on the 200-field form (`WideForm`).
extension InProcessCases {
    /// Adds the 200-column table to the shared database.
    func prepareWide(_ path: String) throws {
        try WideForm.create(in: RawConnection(path: path), count: 100)
    }

    /// `set(key, input:)` on the 200-field form's ruled text field, against
    /// assigning a struct's property.
    func wideKeystroke(_ path: String) throws -> ResultRow {
        let store = try openStore(path)
        let session = try FormSession.open(WideForm.form, key: RecordKey("id", 3), backend: store)
        let model = try ModelCoder.decode(Person.self, from: try FormSession.open(Person.form, key: RecordKey("id", 3),
                                                                                  backend: store).current)
        return try keystrokes(into: session, field: WideForm.key(1), besides: model, name: "keystroke, 200-field form",
                              limit: 2)
    }

    /// Set one field of the 200-field form and save, against BEGIN IMMEDIATE /
    /// cached UPDATE / COMMIT on the same table.
    func wideSave(_ path: String, _ synchronous: Configuration.Synchronous, atMost limit: Double) throws -> ResultRow {
        let store = try openStore(path, synchronous: synchronous)
        let raw = try RawConnection(path: path, synchronous: synchronous.rawValue)
        let begin = try raw.prepare("BEGIN IMMEDIATE")
        let update = try raw.prepare("UPDATE \(WideForm.table) SET \(WideForm.key(2)) = ? WHERE id = ?")
        let commit = try raw.prepare("COMMIT")
        let session = try FormSession.open(WideForm.form, key: RecordKey("id", 1), backend: store)
        let paired = try interleavedSaves(session, field: WideForm.key(2), rounds: size.pick(smoke: 1, quick: 15, full: 31),
                                          perRound: size.pick(smoke: 1, quick: 200, full: 500)) { text in
            try begin.run()
            sqlite3_bind_text(update.pointer, 1, text, -1, formstore_sqlite3_transient())
            sqlite3_bind_int64(update.pointer, 2, 2)
            try update.run()
            try commit.run()
        }
        return .ratio("save, 200-field form (synchronous=\(synchronous.rawValue))", paired, unit: "µs", scale: 1e6,
                      atMost: limit)
    }
}
