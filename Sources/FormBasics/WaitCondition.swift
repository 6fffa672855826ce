#if canImport(Glibc)
import Glibc
#endif

/// A lock with a condition variable: wait until another thread signals,
/// optionally until a deadline. FoundationEssentials has no `NSCondition`;
/// this is the same pair of pthread objects, with the same method names.
public final class WaitCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        // Deadlines are measured on the monotonic clock: a wall-clock jump
        // neither cuts a wait short nor stretches it.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a signal; the lock must be held.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal until `deadline`; the lock must be held.
    /// - returns: `false` when the deadline passed first.
    public func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        if left <= .zero { return false }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = left.components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var end = timespec(tv_sec: now.tv_sec + Int(seconds), tv_nsec: 0)
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            end.tv_sec += 1
        }
        end.tv_nsec = nanoseconds
        return pthread_cond_timedwait(condition, mutex, &end) == 0
    }

    public func signal() { pthread_cond_signal(condition) }

    public func broadcast() { pthread_cond_broadcast(condition) }
}
