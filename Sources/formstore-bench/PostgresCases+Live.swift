import FormCore
import FormStoragePostgres

/// Live records on PostgreSQL: an idle session's cost while it listens
/// (`LISTEN` on a connection of the store's own) and how soon another
/// connection's commit reaches it (FormStore's `NOTIFY` trigger); and what
/// history adds to a save.
extension PostgresCases {
    func live(_ store: PostgresFormStore, _ cases: LiveCases) throws -> [ResultRow] {
        let other = try RawPostgres(url: url)
        return [try historyOverhead(store), try cases.idleSession(store, name: "PostgreSQL: idle session listening for other writers")]
            + (try cases.commitHeard(store, name: "PostgreSQL: another connection's commit heard") { try other.run($0, []) })
    }
}

extension PostgresCases {
    /// The same save by the same session with the store keeping history and
    /// not (`keepsHistory`), alternated.
    func historyOverhead(_ store: PostgresFormStore) throws -> ResultRow {
        let session = try FormSession.open(Person.form, key: RecordKey("id", 3), backend: store)
        var counter = 0
        func save(keepingHistory: Bool) throws -> Double {
            store.keepsHistory = keepingHistory
            return try seconds {
                counter += 1
                try session.set("city", input: "Lyon \(counter)")
                guard case .saved = try session.save() else { throw BenchError("save did not save") }
            }
        }
        defer { store.keepsHistory = true }
        let paired = try interleaved(rounds: size.pick(smoke: 1, quick: 301, full: 1001),
                                     baseline: { try save(keepingHistory: false) }, subject: { try save(keepingHistory: true) })
        guard try session.history().count >= 1 else { throw BenchError("no history was recorded") }
        return .ratio("PostgreSQL save with history", paired, unit: "µs", scale: 1e6, atMost: 1.10)
    }
}
