import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The terminal while the full-screen form runs: raw mode through termios,
/// the alternate screen, and the signals that concern a screen (resize,
/// stop and resume, crashes). Whatever way the process ends, the terminal
/// is put back as it was:
///
/// - a normal end or a thrown error: `leave()` (the caller's `defer`);
/// - SIGINT, SIGTERM, SIGHUP, SIGQUIT: `SignalTrap`'s handler puts the
///   terminal back (`restoreBeforeExit()`) before it prints its message;
/// - SIGTSTP (Ctrl-Z, or `kill -TSTP`): the handler restores, stops, and on
///   resume puts raw mode back and asks for a full redraw;
/// - a crash of the form code (SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS,
///   SIGFPE) and `exit()` from anywhere: restored before the process dies.
///
/// The handlers only call async-signal-safe functions (`tcsetattr`, `write`,
/// `raise`), on state kept in globals set before they are installed.
final class RawTerminal {
    /// What waiting for input brought.
    enum Event: Equatable {
        case bytes([UInt8])
        case resized
        /// Continued after a stop: raw mode is back, the screen must be drawn whole.
        case resumed
        case timeout
        /// Another writer committed to the database (`wakeForCommit()`).
        case commit
        /// The terminal is gone.
        case end
    }

    static let enterSequence = "\u{1B}[?1049h\u{1B}[H\u{1B}[2J\u{1B}[?25l\u{1B}[?2004h"
    static let leaveSequence = "\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    private let input: Int32 = 0
    private let output: Int32 = 1
    private var active = false

    /// Raw mode and the alternate screen, with the handlers installed.
    /// - throws: `CLIError.failure` when the terminal's settings cannot be read.
    init() throws {
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else {
            throw CLIError.failure("cannot use the terminal: \(String(cString: strerror(errno)))")
        }
        cookedSettings.pointee = settings
        var raw = settings
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        // ISIG off: Ctrl-C and Ctrl-Z arrive as keys, so the form decides what
        // they do (keep the draft; stop cleanly).
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        rawSettings.pointee = raw
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw CLIError.failure("cannot use the terminal: no pipe") }
        for end in pipeEnds { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK); _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        screenState.wakeRead = pipeEnds[0]
        screenState.wakeWrite = pipeEnds[1]
        installHandlers()
        tcsetattr(input, TCSAFLUSH, rawSettings)
        screenState.isRaw = 1
        active = true
        write(Self.enterSequence)
    }

    /// Puts the terminal back as it was. Safe to call twice.
    func leave() {
        guard active else { return }
        active = false
        write(Self.leaveSequence)
        screenState.isRaw = 0
        tcsetattr(input, TCSAFLUSH, cookedSettings)
        for signo in [SIGWINCH, SIGCONT, SIGTSTP] + crashSignals { signal(signo, SIG_DFL) }
        close(screenState.wakeRead)
        close(screenState.wakeWrite)
        screenState.wakeWrite = -1
    }

    deinit { leave() }

    /// Columns and rows of the terminal (80x24 when it will not say).
    var size: (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Waits for keys, a resize or a resume; `timeout` in milliseconds (-1: forever).
    func next(timeout: Int32) -> Event {
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: screenState.wakeRead, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, timeout)
        if ready < 0 { return errno == EINTR ? .timeout : .end }
        if ready == 0 { return .timeout }
        if fds[1].revents != 0 {
            var byte: UInt8 = 0
            var resumed = false
            var resized = false
            while read(screenState.wakeRead, &byte, 1) == 1 {
                if byte == UInt8(ascii: "c") { resumed = true }
                if byte == UInt8(ascii: "w") { resized = true }
            }
            if resumed {
                // A stop we did not see coming (SIGSTOP): the shell may have changed the modes.
                tcsetattr(input, TCSAFLUSH, rawSettings)
                screenState.isRaw = 1
                write(Self.enterSequence)
                return .resumed
            }
            return resized ? .resized : .commit
        }
        if fds[0].revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 1024)
            let n = read(input, &buffer, buffer.count)
            if n < 0 && (errno == EINTR || errno == EAGAIN) { return .timeout }
            return n > 0 ? .bytes(Array(buffer[..<n])) : .end
        }
        return .end
    }

    /// Wakes `next(timeout:)` with `.commit`, from any thread: the session's
    /// commit signal fired, so the loop takes the change without a timer.
    static func wakeForCommit() {
        wake(UInt8(ascii: "x"))
    }

    /// Cooked mode and the main screen back at once, from any thread, if the
    /// form has the terminal: before a message printed on the way out, which
    /// the exit hook would otherwise move the cursor back over.
    static func restoreBeforeExit() {
        restoreForExit()
    }

    /// Stops the process as Ctrl-Z does in a shell, the terminal put back first.
    func suspend() {
        raise(SIGTSTP)
    }

    private func installHandlers() {
        install(SIGWINCH, flags: SA_RESTART) { _ in wake(UInt8(ascii: "w")) }
        install(SIGCONT, flags: SA_RESTART) { _ in wake(UInt8(ascii: "c")) }
        install(SIGTSTP, flags: SA_RESTART) { _ in stopCleanly() }
        for signo in crashSignals {
            install(signo, flags: Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))) { signo in
                restoreForExit()
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, signo)
                sigprocmask(SIG_UNBLOCK, &set, nil)
                raise(signo)
            }
        }
        if !screenState.registeredExit {
            screenState.registeredExit = true
            atexit { restoreForExit() }
        }
    }

    private func install(_ signo: Int32, flags: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        sigaction(signo, &action, nil)
    }
}

private let crashSignals = [SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE]

/// What the signal handlers need, set before they are installed.
private struct ScreenState {
    var isRaw: sig_atomic_t = 0
    var wakeRead: Int32 = -1
    var wakeWrite: Int32 = -1
    var registeredExit = false
}

// Signal handlers cannot capture context: the one terminal a process has is
// described here, written by the main thread before any handler can run.
nonisolated(unsafe) private var screenState = ScreenState()

/// The terminal's settings as found (cooked) and for the form (raw), kept on
/// the heap, not in `ScreenState`: Swift 6.3 emits a statically initialized
/// global holding an imported C struct without that struct's inner padding
/// (127 bytes for the 133 `ScreenState` was with two `termios`), so writing its
/// last fields overwrote the next global, a static array's once-token, and the
/// full-screen form hung at its end in release builds. Allocated before any
/// handler is installed (`RawTerminal.init`).
nonisolated(unsafe) private let terminalSettings: UnsafeMutablePointer<termios> = {
    let settings = UnsafeMutablePointer<termios>.allocate(capacity: 2)
    settings.initialize(repeating: termios(), count: 2)
    return settings
}()
private var cookedSettings: UnsafeMutablePointer<termios> { terminalSettings }
private var rawSettings: UnsafeMutablePointer<termios> { terminalSettings + 1 }

private func wake(_ byte: UInt8) {
    var byte = byte
    if screenState.wakeWrite >= 0 { _ = write(screenState.wakeWrite, &byte, 1) }
}

/// Cooked mode and the main screen back, if the form had the terminal.
private func restoreForExit() {
    guard screenState.isRaw != 0 else { return }
    screenState.isRaw = 0
    let leave: StaticString = "\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    _ = write(1, leave.utf8Start, leave.utf8CodeUnitCount)
    tcsetattr(0, TCSAFLUSH, cookedSettings)
}

/// SIGTSTP: the terminal put back, the process stopped; on `fg`, raw mode and
/// the alternate screen again, and the loop told to draw everything.
private func stopCleanly() {
    let wasRaw = screenState.isRaw != 0
    restoreForExit()
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTSTP)
    signal(SIGTSTP, SIG_DFL)
    sigprocmask(SIG_UNBLOCK, &set, nil)
    raise(SIGTSTP)
    // Continued.
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in stopCleanly() }
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(SIGTSTP, &action, nil)
    if wasRaw {
        tcsetattr(0, TCSAFLUSH, rawSettings)
        screenState.isRaw = 1
        let enter: StaticString = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h"
        _ = write(1, enter.utf8Start, enter.utf8CodeUnitCount)
    }
    wake(UInt8(ascii: "c"))
}
