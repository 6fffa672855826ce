import Foundation

/// Monotonic time in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Seconds taken by `body`.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicNanoseconds()
    try body()
    return Double(monotonicNanoseconds() - start) / 1e9
}

func median(_ samples: [Double]) -> Double {
    precondition(!samples.isEmpty, "no samples")
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Medians of a subject and its baseline measured in the same run.
struct Paired {
    var subject: Double
    var baseline: Double
    var ratio: Double { subject / baseline }
}

/// Runs `baseline` and `subject` in alternating rounds (which goes first
/// alternates too), so that drift in the machine — another build, the page
/// cache, the WAL growing — falls on both alike. Each closure measures one
/// round and returns its figure (seconds per operation, say).
func interleaved(rounds: Int, baseline: () throws -> Double, subject: () throws -> Double) rethrows -> Paired {
    var base: [Double] = []
    var subj: [Double] = []
    for round in 0..<rounds {
        if round % 2 == 0 {
            base.append(try baseline())
            subj.append(try subject())
        } else {
            subj.append(try subject())
            base.append(try baseline())
        }
    }
    return Paired(subject: median(subj), baseline: median(base))
}

/// Keeps the optimiser from deleting work whose result is unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// How long a run is: `--quick`, the full run, or the smoke test's single pass
/// (which checks that every measurement works, not how fast).
enum RunSize: String, Codable {
    case smoke, quick, full

    func pick<T>(smoke: T, quick: T, full: T) -> T {
        switch self {
        case .smoke: return smoke
        case .quick: return quick
        case .full: return full
        }
    }
}
