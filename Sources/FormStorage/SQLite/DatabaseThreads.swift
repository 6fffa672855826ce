import Dispatch

/// The database's own threads, where the async API runs SQLite so that a wait
/// for a lock never holds a thread of Swift's cooperative pool: one serial
/// queue for writes (they run one at a time anyway, behind the writer's lock)
/// and a concurrent one for reads (as many at once as the reader pool lets
/// through). Dispatch gives a blocked queue a new thread; the cooperative
/// pool never does, which is why blocking there stalls unrelated tasks.
struct DatabaseThreads: Sendable {
    let writes = DispatchQueue(label: "formstore.database.writes")
    let reads = DispatchQueue(label: "formstore.database.reads", attributes: .concurrent)
    /// Record writes that share a commit, run on `writes` (`WriteBatcher`).
    let batches = WriteBatcher()
}
