import FormCore
import FormStorage
import FormStoreCLI
import Foundation
import Synchronization

/// Typing into a 50-field form at 20 keystrokes a second with drafts on:
/// how often drafts are written, what drafts add to a keystroke, and whether
/// a SIGTERM loses anything typed.
struct TypingCase {
    let directory: Scratch
    let size: RunSize

    static let keystrokesPerSecond = 20.0
    static let letters = Array("abcdefghijklmnopqrst")

    /// What field `f1`... holds after `count` keystrokes: each field takes 20
    /// letters, then typing moves to the next.
    static func typedValues(after count: Int) -> [String: String] {
        var values: [String: String] = [:]
        for k in stride(from: 0, to: count, by: letters.count) {
            let field = WideRecord.key(k / letters.count % (WideRecord.fieldCount - 1) + 1)
            values[field] = String(letters.prefix(min(letters.count, count - k)))
        }
        return values
    }

    /// Sets the `k`th keystroke (1-based) on a session.
    static func type(_ k: Int, into session: FormSession) throws {
        let field = WideRecord.key((k - 1) / letters.count % (WideRecord.fieldCount - 1) + 1)
        try session.set(field, input: String(letters.prefix((k - 1) % letters.count + 1)))
    }

    func run() throws -> [ResultRow] {
        let path = directory.file("typing.sqlite")
        let setup = try RawConnection(path: path)
        try WideRecord.create(in: setup, count: 10)
        return try inProcess(path) + [terminated(path)]
    }

    // MARK: Writes per second and cost per keystroke

    func inProcess(_ path: String) throws -> [ResultRow] {
        let store = try openStore(path, synchronous: .full)
        let drafts = CountingDraftStore(store)
        let policy = DraftAutosaver.Policy(fallback: nil)
        let withDrafts = try FormSession.open(WideRecord.form, key: RecordKey("id", 1), backend: store,
                                              drafts: drafts, autosave: policy)
        let without = try FormSession.open(WideRecord.form, key: RecordKey("id", 2), backend: store)
        let duration = size.pick(smoke: 0.2, quick: 2.0, full: 10.0)
        let count = Int(duration * Self.keystrokesPerSecond)
        var timesWith: [Double] = []
        var timesWithout: [Double] = []
        let start = monotonicNanoseconds()
        for k in 1...count {
            // Waking from the sleep costs tens of µs; spin it off first so that
            // whichever side goes first does not pay it alone.
            let awake = monotonicNanoseconds() + 50_000
            while monotonicNanoseconds() < awake {}
            // Alternate which session types first at each tick.
            if k % 2 == 0 {
                timesWith.append(try seconds { try Self.type(k, into: withDrafts) })
                timesWithout.append(try seconds { try Self.type(k, into: without) })
            } else {
                timesWithout.append(try seconds { try Self.type(k, into: without) })
                timesWith.append(try seconds { try Self.type(k, into: withDrafts) })
            }
            let due = start + UInt64(Double(k) / Self.keystrokesPerSecond * 1e9)
            let now = monotonicNanoseconds()
            if due > now { usleep(UInt32((due - now) / 1000)) }
        }
        withDrafts.close()
        let elapsed = Double(monotonicNanoseconds() - start) / 1e9
        let perSecond = Double(drafts.writes) / elapsed
        let added = (median(timesWith) - median(timesWithout)) * 1e6
        let saved = try store.drafts(form: WideRecord.table, key: RecordKey("id", 1)).first
        guard saved?.values == Self.typedValues(after: count).mapValues(FieldValue.text) else {
            throw BenchError("the draft does not hold what was typed")
        }
        return [
            ResultRow("typing with drafts: draft writes", formstore: perSecond, baseline: nil, unit: "writes/s",
                      goal: "≤ 2 writes/s", met: perSecond <= 2,
                      note: "\(drafts.writes) writes in \(String(format: "%.1f", elapsed)) s of typing"),
            ResultRow("typing with drafts: per keystroke", formstore: median(timesWith) * 1e6,
                      baseline: median(timesWithout) * 1e6, unit: "µs", goal: "≤ 50 µs added",
                      met: added <= 50, note: String(format: "%.1f µs added per keystroke", added)),
        ]
    }

    // MARK: SIGTERM

    /// Types in a child process, sends it SIGTERM, and checks that its draft
    /// holds every keystroke it reported before the signal.
    private func terminated(_ path: String) throws -> ResultRow {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw BenchError("pipe failed") }
        let child = try Child([executableDirectory() + "/formstore-bench", "--typing-child", path],
                              stdoutDescriptor: pipe[1], closing: [pipe[0]])
        close(pipe[1])
        let typingTime = size.pick(smoke: 0.5, quick: 1.5, full: 3.0)
        var reported = 0
        var reportedBeforeSignal = 0
        var signalled = false
        var pending = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(pipe[0], &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            pending += String(decoding: buffer[..<n], as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                reported = Int(pending[..<newline]) ?? reported
                pending = String(pending[pending.index(after: newline)...])
            }
            if !signalled && Double(monotonicNanoseconds() - child.started) / 1e9 >= typingTime {
                reportedBeforeSignal = reported
                kill(child.pid, SIGTERM)
                signalled = true
            }
        }
        close(pipe[0])
        let ended = try child.wait()
        guard ended.exitCode == 0 else { throw BenchError("the typing child did not flush and exit 0 on SIGTERM") }
        let store = try openStore(path)
        let draft = try store.drafts(form: WideRecord.table, key: RecordKey("id", 5)).first
        let held = draft?.values.compactMapValues(\.textValue) ?? [:]
        // The draft must hold some keystroke at or after the last one reported before the signal.
        let kept = (reportedBeforeSignal...max(reportedBeforeSignal, reported)).first { Self.typedValues(after: $0) == held }
        let lost = kept == nil ? Double(max(1, reportedBeforeSignal)) : 0
        return ResultRow("typing with drafts: SIGTERM", formstore: lost, baseline: nil, unit: "lost",
                         goal: "nothing lost", met: kept != nil && reportedBeforeSignal > 0,
                         note: "\(reportedBeforeSignal) keystrokes before SIGTERM; draft holds \(kept.map(String.init) ?? "other text")")
    }

    /// The hidden `--typing-child DB` mode: types into record 5 with drafts,
    /// reporting each keystroke on stdout, until SIGTERM flushes the draft
    /// (through the command's own signal trap) and exits 0.
    static func child(databasePath: String) throws -> Never {
        let store = try openStore(databasePath)
        let session = try FormSession.open(WideRecord.form, key: RecordKey("id", 5), backend: store, drafts: store,
                                           autosave: DraftAutosaver.Policy(fallback: nil))
        let flush = session.makeDraftFlusher()
        let trap = SignalTrap.install(signals: [SIGTERM]) { _ in
            _ = flush()
            return ("", .success)
        }
        withExtendedLifetime(trap) {
            var k = 0
            while true {
                k += 1
                try? type(k, into: session)
                let line = Array("\(k)\n".utf8)
                _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
                usleep(UInt32(1e6 / keystrokesPerSecond))
            }
        }
        fatalError("unreachable")
    }
}

/// A draft store that counts the writes it passes on.
final class CountingDraftStore: DraftStore {
    private let store: any DraftStore
    private let count = Mutex(0)

    init(_ store: any DraftStore) { self.store = store }

    var writes: Int { count.withLock { $0 } }

    func writeDraft(_ draft: Draft) throws {
        count.withLock { $0 += 1 }
        try store.writeDraft(draft)
    }
    func draft(id: String) throws -> Draft? { try store.draft(id: id) }
    func drafts(form: String, key: RecordKey?) throws -> [Draft] { try store.drafts(form: form, key: key) }
    func drafts(form: String?) throws -> [Draft] { try store.drafts(form: form) }
    func deleteDraft(id: String) throws { try store.deleteDraft(id: id) }
    func deleteDrafts(updatedBefore date: Date) throws -> Int { try store.deleteDrafts(updatedBefore: date) }
}
