/// How a transaction takes its locks.
/// See <https://www.sqlite.org/lang_transaction.html>.
public enum TransactionKind: String, Sendable, Hashable {
    /// Takes locks on first use; for reads.
    case deferred = "DEFERRED"
    /// Takes the write lock at once (waiting up to the busy timeout), so a write
    /// never fails half-way with `SQLITE_BUSY`. Every write uses it.
    case immediate = "IMMEDIATE"
    case exclusive = "EXCLUSIVE"

    /// The statement that begins one, written out rather than built per
    /// transaction (an interpolation was a string allocated per save).
    var beginSQL: String {
        switch self {
        case .deferred: "BEGIN DEFERRED TRANSACTION"
        case .immediate: "BEGIN IMMEDIATE TRANSACTION"
        case .exclusive: "BEGIN EXCLUSIVE TRANSACTION"
        }
    }
}
