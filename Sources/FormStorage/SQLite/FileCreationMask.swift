import FoundationEssentials
import Glibc
import Synchronization

/// Runs file-creating work under `umask(077)` so that files SQLite creates
/// (-wal, -shm, journals) are never readable by other users.
///
/// umask is process-wide: the lock keeps two openings from restoring each
/// other's mask in the wrong order.
enum FileCreationMask {
    private static let lock = Mutex(())

    static func restricted<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in
            let previous = umask(0o077)
            defer { umask(previous) }
            return try body()
        }
    }
}
