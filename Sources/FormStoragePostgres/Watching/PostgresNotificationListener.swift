import FormBasics
#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Synchronization

/// Waits for notifications on a connection of its own (`LISTEN channel`):
/// a thread sleeps in `poll` on the connection's socket and a stop pipe, with
/// no timeout, so nothing runs and nothing is sent while nobody commits. Each
/// wake-up reads what the server sent and hands the notifications to
/// `onNotifications`.
///
/// When the connection breaks, the thread connects again (pausing a second
/// between tries, until `stop()`), listens again, and calls `onNotifications`
/// with nil: commits may have been missed meanwhile, so listeners should read.
final class PostgresNotificationListener: Sendable {
    private let stopPipe: (read: Int32, write: Int32)
    private let running = Atomic<Bool>(true)
    private let stopped = Atomic<Bool>(false)

    /// Connects and listens before returning, so a commit made after this
    /// returns is heard.
    ///
    /// - throws: `PostgresError` when the server cannot be reached; `Failure` when no pipe can be made.
    init(url: String, channel: String, onNotifications: @escaping @Sendable ([PostgresNotification]?) -> Void) throws {
        let connection = try Self.listen(url: url, channel: channel)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Failure(operation: "pipe", code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopPipe = (ends[0], ends[1])
        // Handed to the thread here and used by it alone from now on.
        nonisolated(unsafe) let handed = connection
        DetachedThread.start { [self] in self.run(handed, url: url, channel: channel, onNotifications: onNotifications) }
    }

    /// Whether the listening thread still runs (false once it closed its connection after `stop()`).
    var isRunning: Bool { running.load(ordering: .acquiring) }

    /// Ends the listening: closing the pipe's write end wakes the thread,
    /// which closes its connection and exits. Calling it again does nothing.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        close(stopPipe.write)
    }

    private static func listen(url: String, channel: String) throws -> PostgresConnection {
        let connection = try PostgresConnection(url: url, preparesStatements: false)
        try connection.executeScript("LISTEN \(quoteIdentifier(channel))")
        return connection
    }

    private func run(_ first: PostgresConnection, url: String, channel: String,
                     onNotifications: @Sendable ([PostgresNotification]?) -> Void) {
        defer {
            close(stopPipe.read)
            running.store(false, ordering: .releasing)
        }
        var connection: PostgresConnection? = first
        while true {
            guard let conn = connection else {
                // Lost: try again in a second, unless stopped meanwhile.
                if wait(socket: -1, milliseconds: 1_000) == .stopped { return }
                connection = try? Self.listen(url: url, channel: channel)
                if connection != nil { onNotifications(nil) }
                continue
            }
            switch wait(socket: conn.socket, milliseconds: -1) {
            case .stopped: return
            case .timedOut: continue
            case .readable:
                do {
                    let notifications = try conn.takeNotifications()
                    if !notifications.isEmpty { onNotifications(notifications) }
                } catch {
                    connection = nil
                }
            }
        }
    }

    private enum Wake { case readable, stopped, timedOut }

    /// Sleeps until the socket is readable (or broke), `stop()` is called, or
    /// `milliseconds` pass (-1: never).
    private func wait(socket: Int32, milliseconds: Int32) -> Wake {
        while true {
            var fds = [pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, socket >= 0 ? 2 : 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return .stopped
            }
            if fds[0].revents != 0 { return .stopped }
            return ready == 0 ? .timedOut : .readable
        }
    }

    /// The stop pipe could not be made.
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var code: Int32
        var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
    }
}
