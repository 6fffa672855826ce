import FormBasics
#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Synchronization

/// Wakes a callback when a database file may have been written by anyone:
/// inotify on the file's folder, filtered to the file and its `-wal` and
/// `-journal`, so the disk is never polled. The callback tells a real commit
/// from noise (`PRAGMA data_version`); an inotify event can arrive before the
/// commit that caused it is visible (the writer still syncs the WAL, then
/// updates its index in shared memory, which inotify does not see), so after
/// each wake-up the callback runs again at growing intervals over the next
/// ~600 ms ("settling"): soon for a quick commit, later for one slowed by a
/// sync. Then the thread sleeps until the next event.
///
/// The watch runs on a thread of its own (inotify blocks) until `stop()`.
final class DatabaseFileWatcher: Sendable {
    /// The watcher thread runs until this pipe's write end is closed.
    private let stopPipe: (read: Int32, write: Int32)
    private let inotify: Int32
    private let running = Atomic<Bool>(true)
    private let stopped = Atomic<Bool>(false)

    /// When the callback runs again after a wake-up, each delay after the one before.
    private static let settleMilliseconds: [Int32] = [5, 10, 20, 40, 80, 160, 320]

    /// Starts watching `path`'s folder for writes to `path`, `path-wal` and `path-journal`.
    ///
    /// - throws: `DatabaseFileWatcher.Failure` when inotify cannot be set up.
    init(path: String, onWrite: @escaping @Sendable () -> Void) throws {
        let file = URL(fileURLWithPath: path)
        let directory = file.deletingLastPathComponent().path
        let name = file.lastPathComponent
        let names: Set<String> = [name, name + "-wal", name + "-journal"]

        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw Failure(operation: "inotify_init1", code: errno) }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "inotify_add_watch", code: code)
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "pipe", code: code)
        }
        // Not inherited by a child process (pipe2 is not visible to Swift here).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        inotify = fd
        stopPipe = (ends[0], ends[1])
        DetachedThread.start { [self] in self.run(names: names, onWrite: onWrite) }
    }

    /// Whether the watcher thread still runs (false once it closed its files after `stop()`).
    var isRunning: Bool { running.load(ordering: .acquiring) }

    /// Ends the watch: closing the pipe's write end wakes the thread, which
    /// closes inotify and exits. Calling it again does nothing. Until it is
    /// called the thread keeps the watcher alive.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        close(stopPipe.write)
    }

    private func run(names: Set<String>, onWrite: @Sendable () -> Void) {
        defer {
            close(inotify)
            close(stopPipe.read)
            running.store(false, ordering: .releasing)
        }
        // The next settle delay's index; past the end, the thread waits for events only.
        var settling = Self.settleMilliseconds.count
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, settling < Self.settleMilliseconds.count ? Self.settleMilliseconds[settling] : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if ready == 0 {
                settling += 1
                onWrite()
                continue
            }
            if drainEvents(naming: names) {
                settling = 0
                onWrite()
            }
        }
    }

    /// Reads every pending inotify event; whether one named a watched file.
    private func drainEvents(naming names: Set<String>) -> Bool {
        var relevant = false
        let headerSize = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + headerSize <= count {
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + headerSize)..<min(offset + headerSize + length, count)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if names.contains(name) { relevant = true }
                    offset += headerSize + length
                }
            }
        }
    }

    /// inotify could not be set up (a limit on watches reached, say).
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var code: Int32
        var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
    }
}
