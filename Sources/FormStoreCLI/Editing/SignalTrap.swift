import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Catches SIGINT and SIGTERM while an interactive edit runs, so that Ctrl-C
/// keeps what was typed: the handler flushes the draft and says how to resume,
/// then the process exits with the code the handler gives.
///
/// ```swift
/// let trap = SignalTrap.install { _ in
///     _ = flush()
///     return ("\nInterrupted: draft kept.\n", .failure)
/// }
/// defer { trap.remove() }
/// ```
///
/// The signals are ignored while the trap is installed and delivered to a
/// `DispatchSource` instead, so the handler runs on a dispatch queue, not in
/// signal context: it may lock and write files. It must not touch the
/// (non-`Sendable`) session; `FormSession.makeDraftFlusher()` is the safe way in.
/// The terminal's settings as they were when the trap was installed come back
/// before the message is written (a secure prompt turns echo off).
final class SignalTrap: Sendable {
    /// Runs on the trap's queue when a signal arrives; returns what to write to
    /// stderr and the code to exit with.
    typealias Handler = @Sendable (_ signal: Int32) -> (message: String, code: ExitCode)

    private struct Installed {
        var sources: [any DispatchSourceSignal]
        var previous: [Int32: __sighandler_t?]
    }

    private let installed: Mutex<Installed?>

    private init(_ installed: sending Installed?) {
        self.installed = Mutex(installed)
    }

    /// A trap that catches nothing (for edits run inside tests, where the
    /// process's signals are not the edit's to take).
    static var inert: SignalTrap { SignalTrap(nil) }

    /// Starts catching `signals` (SIGINT and SIGTERM by default) until `remove()`.
    ///
    /// - parameter terminate: ends the process; tests pass a recorder.
    static func install(signals: [Int32] = [SIGINT, SIGTERM],
                        terminate: @escaping @Sendable (Int32) -> Void = { exit($0) },
                        handler: @escaping Handler) -> SignalTrap {
        let queue = DispatchQueue(label: "formstore.signal-trap")
        let terminal = TerminalSettings.current()
        var previous: [Int32: __sighandler_t?] = [:]
        var sources: [any DispatchSourceSignal] = []
        for signo in signals {
            // Ignored, so the default action (death without a flush) does not
            // run; the dispatch source still sees the signal.
            previous[signo] = signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: queue)
            source.setEventHandler {
                terminal?.restore()
                let (message, code) = handler(signo)
                SignalTrap.writeToStandardError(message)
                terminate(code.rawValue)
            }
            source.resume()
            sources.append(source)
        }
        return SignalTrap(Installed(sources: sources, previous: previous))
    }

    /// Stops catching: the signals do what they did before. Safe to call twice.
    func remove() {
        guard let done = installed.withLock({ state -> Installed? in
            defer { state = nil }
            return state
        }) else { return }
        for source in done.sources { source.cancel() }
        for (signo, handler) in done.previous { signal(signo, handler) }
    }

    deinit { remove() }

    /// Straight to the descriptor: the command's sinks belong to the main thread.
    private static func writeToStandardError(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }
}

/// The standard input's terminal settings, to put back after an interrupted
/// prompt that had turned echo off.
private struct TerminalSettings: Sendable {
    var settings: termios

    static func current() -> TerminalSettings? {
        guard isatty(0) == 1 else { return nil }
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return nil }
        return TerminalSettings(settings: settings)
    }

    func restore() {
        var settings = self.settings
        tcsetattr(0, TCSANOW, &settings)
    }
}
