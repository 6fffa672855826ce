#if canImport(Glibc)
import Glibc
#endif

/// A mutual-exclusion lock with `lock()`/`unlock()` pairs, for the places
/// whose critical section spans calls (a `Mutex` cannot be held across them).
/// FoundationEssentials has no `NSLock`; this is the same pthread mutex.
public final class Lock: @unchecked Sendable {
    // Allocated once and never moved: pthread objects must keep their address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// - parameter recursive: whether the thread holding the lock may take
    ///   it again (what `NSRecursiveLock` was).
    public init(recursive: Bool = false) {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
