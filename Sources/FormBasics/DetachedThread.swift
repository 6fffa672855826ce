#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for blocking work (a file watcher's `poll`), off
/// Swift's cooperative pool. FoundationEssentials has no `Thread`.
public enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new detached thread.
    public static func start(_ body: @escaping @Sendable () -> Void) {
        // No thread: run it here rather than lose it.
        if !startIfPossible(body) { body() }
    }

    /// Starts `body` on a new detached thread; false, with `body` not run,
    /// when no thread could be made (for work that cannot run on the caller's).
    public static func startIfPossible(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
