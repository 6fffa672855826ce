import CSQLite
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Checkpoints the writer's WAL on a thread of its own, so that no commit
/// waits for one.
///
/// SQLite checkpoints by itself once the WAL holds 1000 pages, inside the
/// commit that crossed the mark: that commit copies every page into the
/// database file and, at `synchronous=NORMAL`, syncs it, while the writes
/// queued behind it wait. A service's group commits then took turns to stall
/// for milliseconds; at NORMAL this was the slowest percent of requests (issue 14).
/// Here the writer's WAL hook only notes the size, and a second connection
/// runs a passive checkpoint, which takes no lock a writer or reader waits
/// for: commits go on while it copies. The checkpoint is SQLite's own, so a
/// crash during one loses nothing; at most the WAL is longer for a while.
///
/// Only the writer's `main` database is checkpointed here. An attached
/// database (a sidecar) is checkpointed in its commit, as SQLite would, and
/// so is `main` once the second connection could not be opened.
final class WALCheckpointer: @unchecked Sendable {
    /// The WAL's size, in pages, that asks for a checkpoint: SQLite's own default.
    static let threshold: Int32 = 1000

    private let queue = DispatchQueue(label: "formstore.database.checkpoints")
    private let isScheduled = Atomic<Bool>(false)
    /// Set when the checkpointing connection could not be opened: the
    /// commits checkpoint again, rather than let the WAL grow without end.
    fileprivate let checkpointsInCommit = Atomic<Bool>(false)
    private let open: () throws -> Connection
    /// The checkpointing connection, opened on the first checkpoint; touched only on `queue`.
    private var connection: Connection?

    /// `open`: opens the database read-write again, without changing its journal mode.
    init(open: @escaping () throws -> Connection) {
        self.open = open
    }

    /// Takes over `writer`'s checkpoints (its WAL hook). The checkpointer
    /// must live until `detach(from:)` is called on the same connection.
    func attach(to writer: Connection) {
        sqlite3_wal_hook(writer.handle.pointer, walHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Gives `writer` back SQLite's checkpoints in the commit, then waits for
    /// a checkpoint that is running and closes the checkpointing connection.
    func detach(from writer: Connection) {
        sqlite3_wal_autocheckpoint(writer.handle.pointer, Self.threshold)
        queue.sync { connection = nil }
    }

    /// After a commit (from the WAL hook): asks for a checkpoint once the WAL
    /// is long enough, unless one is already asked for.
    fileprivate func walGrew(to pages: Int32) {
        guard pages >= Self.threshold, !isScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { self.checkpoint() }
    }

    private func checkpoint() {
        // Cleared first: a commit while this one runs asks for the next.
        isScheduled.store(false, ordering: .releasing)
        do {
            if connection == nil { connection = try open() }
            // A passive checkpoint copies what it can and never waits;
            // what it cannot copy yet, the next one will.
            _ = sqlite3_wal_checkpoint_v2(connection!.handle.pointer, "main", SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } catch {
            // The database could not be opened again (no file descriptor left, say).
            checkpointsInCommit.store(true, ordering: .releasing)
        }
    }
}

/// The writer's WAL hook: SQLite calls it after each commit with the WAL's
/// size in pages. It must return `SQLITE_OK`.
private func walHook(_ context: UnsafeMutableRawPointer?, _ db: OpaquePointer?, _ schema: UnsafePointer<CChar>?,
                     _ pages: Int32) -> Int32 {
    guard let context else { return SQLITE_OK }
    let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
    let isMain = schema.map { strcmp($0, "main") == 0 } ?? true
    if !isMain || checkpointer.checkpointsInCommit.load(ordering: .acquiring) {
        // Checkpointed here, in the commit, as SQLite's own hook does.
        if pages >= WALCheckpointer.threshold { sqlite3_wal_checkpoint(db, schema) }
        return SQLITE_OK
    }
    checkpointer.walGrew(to: pages)
    return SQLITE_OK
}
