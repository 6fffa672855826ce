import Dispatch
import Glibc
import Synchronization
import FormStorage

/// What stops an import on SIGINT, SIGTERM or SIGHUP: the signal is taken
/// (`SignalTrap`), and the next record the import asks for
/// (`ReadAheadReader.next()`) is an error instead, so the import's
/// transaction rolls back as for any other failure and the file is left as
/// it was, with no journal beside it. Killed by the signal, the process left
/// the transaction half written in the file and a hot journal to undo it.
///
/// An import waiting for input (a pipe that sends nothing) is woken. One
/// that does not stop within `grace` (a statement that runs long) is ended
/// then as the signal would have ended it; SQLite's journal undoes it at the
/// next open. One that read all its input is left to commit, and says what
/// it imported. A signal the caller ignores (`nohup`) stays ignored.
final class ImportInterruption: Sendable {
    /// The signal taken; 0 while none was.
    private let taken = Atomic<Int32>(0)
    /// The input was read to its end: the import is writing its last rows
    /// and committing, which a signal no longer stops (it would say "nothing
    /// was imported" of rows it goes on to commit).
    private let inputEnded = Atomic<Bool>(false)
    /// The import returned (or threw): a grace's end finds nothing to end.
    private let finished = Atomic<Bool>(false)
    /// Run once a signal is taken (the reader's wait is ended).
    private let wakers = Mutex<[@Sendable () -> Void]>([])
    private let grace: Duration
    /// Stops the import's SQLite work on the calling thread: a wait for another
    /// process's lock, a long statement. A signal during a lock's wait ended the
    /// import only at the grace's end, saying the journal would undo rows never written.
    private let storage = Interruption()
    /// The trap of an import that returned: held until the process ends, so a
    /// signal during the close (its checkpoint) finds the import done, not killed
    /// with 130 ("nothing was imported") after its rows were committed.
    private static let heldAfterReturn = Mutex<SignalTrap?>(nil)

    init(grace: Duration = .seconds(5)) {
        self.grace = grace
    }

    /// Said by the reader at the end of the input: from here on the import finishes.
    func endOfInput() { inputEnded.store(true, ordering: .releasing) }

    /// The error the import stops with once a signal was taken; nil before.
    var error: CLIError? {
        let signal = taken.load(ordering: .acquiring)
        return signal == 0 ? nil : Self.error(signal)
    }

    static func error(_ signal: Int32) -> CLIError {
        .interrupted(signal: signal, "interrupted by \(EditorLauncher.signalName(signal)): nothing was imported, "
                     + "the database is as it was")
    }

    /// Runs `wake` when a signal is taken.
    func onInterrupt(_ wake: @escaping @Sendable () -> Void) {
        wakers.withLock { $0.append(wake) }
    }

    func interrupt(_ signal: Int32) {
        // Done, or committing: the signal stops nothing.
        guard !finished.load(ordering: .acquiring), !inputEnded.load(ordering: .acquiring) else { return }
        guard taken.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing).exchanged else { return }
        storage.cancel()
        for wake in wakers.withLock({ $0 }) { wake() }
    }

    /// Takes the signals while `body` runs.
    func whileTrapped<T>(_ body: () throws -> T) throws -> T {
        let grace = self.grace
        let trap = SignalTrap.install(signals: [SIGINT, SIGTERM, SIGHUP], finish: { [self] message, code in
            // The import ends itself; past the grace it is ended here, unless it read all its input
            // (it is committing) or it is done.
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(grace.components.seconds * 1_000_000_000))) {
                guard !self.finished.load(ordering: .acquiring), !self.inputEnded.load(ordering: .acquiring) else { return }
                SignalTrap.exit(message, code)
            }
        }) { [self] signal in
            interrupt(signal)
            return ("formstore: interrupted by \(EditorLauncher.signalName(signal)) and not stopped in time: "
                    + "nothing was imported (SQLite's journal undoes the rows written at the next open)\n",
                    ExitCode(rawValue: 128 + signal))
        }
        var returned = false
        defer {
            finished.store(true, ordering: .releasing)
            if returned { Self.heldAfterReturn.withLock { $0 = trap } } else { trap.remove() }
        }
        do {
            let result = try storage.whileCurrent(body)
            returned = true
            return result
        } catch where self.error != nil {
            // Stopped by the signal (a lock's wait or a statement cut short): the transaction rolled back.
            throw self.error!
        }
    }
}
