/// How a transaction takes its locks.
/// See <https://www.sqlite.org/lang_transaction.html>.
public enum TransactionKind: String, Sendable, Hashable {
    /// Takes locks on first use; for reads.
    case deferred = "DEFERRED"
    /// Takes the write lock at once (waiting up to the busy timeout), so a write
    /// never fails half-way with `SQLITE_BUSY`. Every write uses it.
    case immediate = "IMMEDIATE"
    case exclusive = "EXCLUSIVE"
}
