import Foundation
import Synchronization

/// A task executor of `threadCount` threads of its own: as small as Swift's
/// cooperative pool on a 2-core machine, but not shared with the other tests
/// that run at the same time (their blocking work would stall any task on the
/// shared pool). A task preferring it runs only on these threads, so work that
/// blocks them shows as a stall, and nothing else does.
final class SmallThreadPool: TaskExecutor, Sendable {
    private let jobs = Mutex<(queue: [UnownedJob], stopped: Bool)>(([], false))
    private let available = DispatchSemaphore(value: 0)

    init(threadCount: Int = 2) {
        for _ in 0..<threadCount {
            Thread { [self] in
                while let job = next() { job.runSynchronously(on: asUnownedTaskExecutor()) }
            }.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.queue.append(unowned) }
        available.signal()
    }

    /// Lets the threads end once the jobs queued so far have run.
    func stop(threadCount: Int = 2) {
        jobs.withLock { $0.stopped = true }
        for _ in 0..<threadCount { available.signal() }
    }

    private func next() -> UnownedJob? {
        while true {
            available.wait()
            let (job, stopped) = jobs.withLock { state -> (UnownedJob?, Bool) in
                state.queue.isEmpty ? (nil, state.stopped) : (state.queue.removeFirst(), false)
            }
            if let job { return job }
            if stopped { return nil }
        }
    }
}
