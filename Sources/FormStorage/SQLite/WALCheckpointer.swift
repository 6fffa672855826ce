import CSQLite
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Checkpoints the writer's WAL on a thread of its own, so that commits
/// rarely wait for one.
///
/// SQLite checkpoints by itself once the WAL holds 1000 pages, inside the
/// commit that crossed the mark: that commit copies every page into the
/// database file and, at `synchronous=NORMAL`, syncs it, while the writes
/// queued behind it wait. A service's group commits then took turns to stall
/// for milliseconds; at NORMAL this was the slowest percent of requests (issue 14).
/// Here the writer's WAL hook only notes the size, and a second connection
/// runs a passive checkpoint (a *pass*), which takes no lock a writer or
/// reader waits for: commits go on while it copies. The checkpoint is
/// SQLite's own, so a crash during one loses nothing; at most the WAL is
/// longer for a while.
///
/// Two things keep the WAL from growing without end:
/// - A commit asks for a pass only once the WAL has grown by `threshold`
///   pages since the last pass looked at it. (Asking after every commit past
///   the mark, as a first version did, ran a pass per commit while the WAL
///   was long, and each pass sorts every page of the WAL: a third of a
///   save benchmark's instructions went there.)
/// - The WAL starts over from its beginning only when a write transaction
///   begins with every page copied. A writer that never pauses gives a pass
///   on another thread no such moment: the pages written while it copied are
///   always left. So once a pass has copied everything it saw and the WAL is
///   `restartAfter` pages long, the writer's next commit copies the few
///   pages written since (in the commit, as SQLite would), and its next
///   transaction starts the WAL over.
///
/// Only the writer's `main` database is checkpointed here. An attached
/// database (a sidecar) is checkpointed in its commit, as SQLite would, and
/// so is `main` once the second connection could not be opened.
final class WALCheckpointer: @unchecked Sendable {
    /// The WAL's growth, in pages, that asks for a pass: SQLite's own mark.
    static let threshold: Int32 = 1000
    /// The WAL's length, in pages, past which the writer copies what the
    /// last pass left, so that the WAL starts over.
    static let restartAfter: Int32 = 2 * threshold

    private let queue = DispatchQueue(label: "formstore.database.checkpoints")
    private let isScheduled = Atomic<Bool>(false)
    /// The WAL's length at which a commit asks for the next pass: the last
    /// pass's length plus `threshold`.
    private let nextPassAt = Atomic<Int32>(threshold)
    /// Set by a pass that copied every page it saw of a WAL `restartAfter`
    /// long: the writer's next commit copies the rest.
    private let writerCopiesRest = Atomic<Bool>(false)
    /// Set when the checkpointing connection could not be opened: the
    /// commits checkpoint again, rather than let the WAL grow without end.
    fileprivate let checkpointsInCommit = Atomic<Bool>(false)
    private let open: () throws -> Connection
    /// The checkpointing connection, opened on the first checkpoint; touched only on `queue`.
    private var connection: Connection?
    /// The WAL's length after the last commit, and whether it started over
    /// since the last pass was asked for; touched only by the writer's commits.
    private var lastLength: Int32 = 0
    private var startedOverSincePass = false
    /// What happened so far, for tests: passes run, and the times the WAL started over.
    let passes = Atomic<Int>(0)
    let startsOver = Atomic<Int>(0)

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
    /// a pass that is running and closes the checkpointing connection.
    func detach(from writer: Connection) {
        sqlite3_wal_autocheckpoint(writer.handle.pointer, Self.threshold)
        queue.sync { connection = nil }
    }

    /// After a commit of `main` (from the WAL hook, on the writer): copies
    /// what the last pass left, or asks for a pass, or does nothing.
    fileprivate func committed(_ db: OpaquePointer?, walLength pages: Int32) {
        if pages < lastLength {
            startsOver.add(1, ordering: .relaxed)
            startedOverSincePass = true
        }
        lastLength = pages
        if writerCopiesRest.exchange(false, ordering: .acquiringAndReleasing) {
            _ = sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            return
        }
        guard pages >= Self.threshold, startedOverSincePass || pages >= nextPassAt.load(ordering: .acquiring),
              !isScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        startedOverSincePass = false
        queue.async { self.pass() }
    }

    private func pass() {
        var length: Int32 = -1
        var copied: Int32 = -1
        do {
            if connection == nil { connection = try open() }
            // A passive checkpoint copies what it can and never waits;
            // what it cannot copy yet (a reader still needs it), a later one will.
            let code = sqlite3_wal_checkpoint_v2(connection!.handle.pointer, "main", SQLITE_CHECKPOINT_PASSIVE,
                                                 &length, &copied)
            passes.add(1, ordering: .relaxed)
            if code == SQLITE_OK, copied == length, length >= Self.restartAfter {
                writerCopiesRest.store(true, ordering: .releasing)
            }
        } catch {
            // The database could not be opened again (no file descriptor left, say).
            checkpointsInCommit.store(true, ordering: .releasing)
        }
        // A pass that could not run (another process was checkpointing) is asked for again at the mark.
        nextPassAt.store(max(Self.threshold, length + Self.threshold), ordering: .releasing)
        isScheduled.store(false, ordering: .releasing)
    }
}

/// The writer's WAL hook: SQLite calls it after each commit with the WAL's
/// length in pages. It must return `SQLITE_OK`.
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
    checkpointer.committed(db, walLength: pages)
    return SQLITE_OK
}
