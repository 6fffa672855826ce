import Glibc
import Synchronization

/// The line a person is typing at a prompt, which the terminal holds until
/// Enter: a signal (Ctrl-C) must not throw it away, and the edit keeps it in
/// its draft. While kept (`keep()`), the terminal does not flush its input on
/// a signal (`NOFLSH`); `take()` then reads what was typed, with the line
/// discipline out of its line mode for that one read (Linux hands over a
/// half line so), and puts the settings back.
enum TypedLine {
    /// Turns off the flush of typed input on a signal, when standard input
    /// is a terminal; returns the settings to put back (`release`).
    static func keep() -> termios? {
        guard isatty(0) == 1 else { return nil }
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return nil }
        var kept = settings
        kept.c_lflag |= tcflag_t(NOFLSH)
        guard tcsetattr(0, TCSANOW, &kept) == 0 else { return nil }
        return settings
    }

    /// Puts the terminal's settings back as `keep` found them.
    static func release(_ settings: termios) {
        var settings = settings
        tcsetattr(0, TCSANOW, &settings)
    }

    /// Set while `take()` runs: a line the prompt's own read gets then is the
    /// half line, handed over (`handOver`), not an answer.
    private static let taking = Atomic<Bool>(false)
    private static let handed = Mutex<[UInt8]?>(nil)

    /// Whether a line just read is the half line `take()` is after.
    static var isTaking: Bool { taking.load(ordering: .acquiring) }

    /// The prompt's read got the half line while `take()` ran: handed to it.
    static func handOver(_ bytes: [UInt8]) {
        handed.withLock { $0 = bytes }
    }

    /// What is typed on the terminal's line and not yet entered; `nil` when
    /// nothing is (or standard input is no terminal). Out of line mode the
    /// terminal gives the half line to whichever read asks first: this one,
    /// or the prompt's own, which hands it over; it waits for that a moment.
    static func take() -> String? {
        guard isatty(0) == 1 else { return nil }
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return nil }
        var immediate = settings
        immediate.c_lflag &= ~tcflag_t(ICANON)
        withUnsafeMutableBytes(of: &immediate.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        taking.store(true, ordering: .releasing)
        guard tcsetattr(0, TCSANOW, &immediate) == 0 else { return nil }
        defer { tcsetattr(0, TCSANOW, &settings) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<20 where bytes.isEmpty {
            while bytes.count < 1 << 16 {
                let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                bytes += chunk[..<n]
            }
            if bytes.isEmpty, let given = handed.withLock({ $0 }) { bytes = given }
            if bytes.isEmpty { usleep(10_000) }
        }
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { bytes.removeLast() }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
