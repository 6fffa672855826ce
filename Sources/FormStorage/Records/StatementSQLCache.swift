import Synchronization

/// The `INSERT` and `UPDATE` texts of one table mapping, by statement kind
/// and the columns it writes: built the first time, then the same string for
/// every later write of that shape, so the connection's statement cache finds
/// its prepared statement without a new SQL text being assembled per write.
/// One cache serves a save's UPDATE, `new`'s and a group row's
/// INSERT, and an import's every row (issue 14).
///
/// Part of a `TableMapping` but not of what it is: every cache compares
/// equal, so two mappings of the same form and table stay equal.
final class StatementSQLCache: Sendable, Hashable {
    /// Past this many column sets (an import writing every combination) the cache starts again.
    private static let limit = 256
    private let texts = Mutex<[Key: String]>([:])

    enum Kind: Hashable {
        /// An INSERT, doing nothing when the key is stored already (`ifKeyIsFree`) or not.
        case insert(ifKeyIsFree: Bool)
        case update
        /// A SELECT by key of just these columns (a save's read of its row in part).
        case select
    }

    /// Which statement, and which columns it writes (positions in the mapping's `columns`).
    struct Key: Hashable {
        var kind: Kind
        var columns: [Int]
    }

    /// The text for `key`, made by `build` the first time.
    func sql(_ key: Key, build: () -> String) -> String {
        cached(key) ?? keep(build(), for: key)
    }

    /// The text kept for `key`, if any (`sql(_:build:)` without a closure,
    /// for a caller whose closure would capture a copy of a whole mapping).
    func cached(_ key: Key) -> String? {
        texts.withLock { $0[key] }
    }

    /// Keeps `sql` for `key`; returns it.
    func keep(_ sql: String, for key: Key) -> String {
        texts.withLock { texts in
            if texts.count >= Self.limit { texts.removeAll(keepingCapacity: true) }
            texts[key] = sql
        }
        return sql
    }

    static func == (lhs: StatementSQLCache, rhs: StatementSQLCache) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
