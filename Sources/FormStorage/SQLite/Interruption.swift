import CSQLite
import FoundationEssentials
import Glibc
import Synchronization

/// Set when the task that asked for a database job was cancelled. The job
/// runs on one of the database's own threads, which carries its flag while it
/// runs (`Interruption.current`): the busy handler and the progress handler of
/// every connection read it there, so a wait for another process's lock ends
/// at once and a long statement stops with `SQLITE_INTERRUPT`.
///
/// Thread-bound rather than connection-bound: one job may use the writer and a
/// reader (a save reads its table's mapping first), and `sqlite3_interrupt`
/// would stop whatever job the connection runs next too.
///
/// Synchronous work sets one itself (`whileCurrent`), to be stopped from
/// another thread (a command's signal handler):
///
/// ```swift
/// let stop = Interruption()
/// onSignal { stop.cancel() }
/// try stop.whileCurrent { try store.writeBatch(form) { … } }   // SQLITE_INTERRUPT or SQLITE_BUSY once cancelled
/// ```
public final class Interruption: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// For a batch of writes waiting together (`WriteBatcher`): cancelled
    /// once every one of them is.
    private let members: [Interruption]

    public init() { members = [] }

    /// A flag that reads as set once each of `members` is set.
    init(allOf members: [Interruption]) { self.members = members }

    public var isCancelled: Bool {
        cancelled.load(ordering: .acquiring) || (!members.isEmpty && members.allSatisfy(\.isCancelled))
    }

    public func cancel() { cancelled.store(true, ordering: .releasing) }

    /// The flag of the job the current thread runs; `nil` outside async jobs.
    static var current: Interruption? {
        guard let pointer = pthread_getspecific(interruptionKey) else { return nil }
        return Unmanaged<Interruption>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` with this flag as the current thread's.
    public func whileCurrent<T>(_ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(interruptionKey)
        pthread_setspecific(interruptionKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(interruptionKey, previous) }
        return try body()
    }
}

private let interruptionKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

extension Connection {
    /// Instead of `sqlite3_busy_timeout`: waits in short sleeps up to the busy
    /// timeout, as SQLite's own handler does, but gives up as soon as the
    /// current job is cancelled. Also installs a progress handler that
    /// interrupts a cancelled job's statement.
    /// See <https://www.sqlite.org/c3ref/busy_handler.html>.
    func installInterruptibleWaits() {
        // The timeout travels as the context pointer's bits: no memory to own.
        let context = UnsafeMutableRawPointer(bitPattern: Int(configuration.busyTimeoutMilliseconds) + 1)
        sqlite3_busy_handler(handle.pointer, { context, count in
            let timeout = Int(bitPattern: context) - 1
            return BusyWait.shouldRetry(count: Int(count), timeoutMilliseconds: timeout) ? 1 : 0
        }, context)
        sqlite3_progress_handler(handle.pointer, 1000, { _ in
            Interruption.current?.isCancelled == true ? 1 : 0
        }, nil)
    }
}

/// The waits of the busy handler.
enum BusyWait {
    /// SQLite's own schedule (sqliteDefaultBusyCallback), in milliseconds.
    private static let delays = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]
    /// The longest sleep between two looks at the cancellation flag.
    private static let slice = 5

    /// Sleeps before retry number `count`; false once the timeout is spent or
    /// the current job was cancelled.
    static func shouldRetry(count: Int, timeoutMilliseconds: Int) -> Bool {
        let interruption = Interruption.current
        if interruption?.isCancelled == true { return false }
        let waited = count < delays.count ? delays[..<count].reduce(0, +)
            : delays.reduce(0, +) + (count - delays.count) * delays[delays.count - 1]
        var delay = min(count < delays.count ? delays[count] : delays[delays.count - 1], timeoutMilliseconds - waited)
        guard delay > 0 else { return false }
        while delay > 0 {
            let step = min(delay, slice)
            usleep(UInt32(step * 1000))
            delay -= step
            if interruption?.isCancelled == true { return false }
        }
        return true
    }
}
