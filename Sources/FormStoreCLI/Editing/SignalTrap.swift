import Dispatch
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
public import Glibc
#endif

/// Catches SIGINT, SIGTERM, SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\)
/// while an interactive edit runs, so that Ctrl-C keeps what was typed: the
/// handler flushes the draft and says how to resume,
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
public final class SignalTrap: Sendable {
    /// Runs on the trap's queue when a signal arrives; returns what to write to
    /// stderr and the code to exit with.
    public typealias Handler = @Sendable (_ signal: Int32) -> (message: String, code: ExitCode)

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
    public static var inert: SignalTrap { SignalTrap(nil) }

    /// Starts catching `signals` (SIGINT, SIGTERM, SIGHUP and SIGQUIT by default) until `remove()`.
    ///
    /// - parameter finish: writes the handler's message and ends the process
    ///   with its code; tests pass a recorder.
    public static func install(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT],
                        finish: @escaping @Sendable (_ message: String, _ code: Int32) -> Void = SignalTrap.exit,
                        handler: @escaping Handler) -> SignalTrap {
        let queue = DispatchQueue(label: "formstore.signal-trap")
        let terminal = TerminalSettings.current()
        // A signal the process was started ignoring (`nohup`, a script's background job's SIGINT)
        // stays ignored: the caller asked for it to run on.
        let signals = signals.filter { signo in
            var current = sigaction()
            guard sigaction(signo, nil, &current) == 0, let handler = current.__sigaction_handler.sa_handler else { return true }
            return address(handler) != address(SIG_IGN)
        }
        // A blocked signal never reaches the source, and a child (the editor)
        // inherits the mask: a parent that started us with them blocked must
        // not make SIGTERM miss both.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signo in signals { sigaddset(&unblocked, signo) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        var previous: [Int32: __sighandler_t?] = [:]
        var sources: [any DispatchSourceSignal] = []
        for signo in signals {
            // Not the default action (death without a flush) until libdispatch
            // puts its own handler in, which forwards to the source. It does so
            // once per process: a later trap puts back the one it remembered.
            // A handler, not SIG_IGN, because an ignored signal stays ignored
            // in the editor started meanwhile.
            let known = forwarders.withLock { $0[signo] }
            previous[signo] = signal(signo, known ?? holdSignal)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: queue)
            source.setEventHandler {
                terminal?.restore()
                let (message, code) = handler(signo)
                finish(message, code.rawValue)
            }
            let registered = DispatchSemaphore(value: 0)
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            // Registered: from now on a signal reaches the handler.
            _ = registered.wait(timeout: .now() + 5)
            sources.append(source)
        }
        return SignalTrap(Installed(sources: sources, previous: previous))
    }

    /// Stops catching: the signals do what they did before. Safe to call twice.
    public func remove() {
        guard let done = installed.withLock({ state -> Installed? in
            defer { state = nil }
            return state
        }) else { return }
        for source in done.sources { source.cancel() }
        for (signo, handler) in done.previous {
            if let current = signal(signo, handler), Self.address(current) != Self.address(holdSignal) {
                Self.forwarders.withLock { $0[signo] = current }
            }
        }
    }

    /// libdispatch's forwarding handler per signal, once seen.
    private static let forwarders = Mutex<[Int32: __sighandler_t]>([:])

    private static func address(_ handler: __sighandler_t) -> UInt {
        UInt(bitPattern: unsafeBitCast(handler, to: Int.self))
    }

    deinit { remove() }

    /// Writes `message` to stderr and exits with `code`.
    @Sendable public static func exit(_ message: String, _ code: Int32) {
        writeToStandardError(message)
        Glibc.exit(code)
    }

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

/// Catches a signal and does nothing, until libdispatch's handler replaces it.
private func holdSignal(_ signo: Int32) {}

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
