import Synchronization

/// The `UPDATE` texts of one table mapping, by the columns a save writes:
/// built on the first save of that column set, then the same string for
/// every later one, so the connection's statement cache finds its prepared
/// statement without a new SQL text being assembled per save (issue 14).
///
/// Part of a `TableMapping` but not of what it is: every cache compares
/// equal, so two mappings of the same form and table stay equal.
final class UpdateSQLCache: Sendable, Hashable {
    /// Past this many column sets (an import writing every combination) the cache starts again.
    private static let limit = 256
    private let texts = Mutex<[Key: String]>([:])

    /// Which columns (by position in the mapping's `columns`) and whether it reads the row back.
    struct Key: Hashable {
        var columns: [Int]
        var returning: Bool
    }

    /// The text for `key`, made by `build` the first time.
    func sql(_ key: Key, build: () -> String) -> String {
        if let found = texts.withLock({ $0[key] }) { return found }
        let sql = build()
        texts.withLock { texts in
            if texts.count >= Self.limit { texts.removeAll(keepingCapacity: true) }
            texts[key] = sql
        }
        return sql
    }

    static func == (lhs: UpdateSQLCache, rhs: UpdateSQLCache) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
