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
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        if status == 0 {
            pthread_detach(thread)
        } else {
            // No thread: run it here rather than lose it.
            Unmanaged<Body>.fromOpaque(box).takeRetainedValue().run()
        }
    }
}
