import Dispatch
import FormBasics
import Synchronization

/// Reads another reader's records on a thread of its own, a chunk ahead of
/// the import that takes them, so that tokenizing the input (a third of an
/// NDJSON import's instructions) runs beside the parsing, checking and
/// inserting instead of before it (issue 14).
///
/// What the import sees is what the reader gives, in the same order: the
/// records, then the end or the error the reader threw, at the record where
/// it threw it. At most `chunksAhead` chunks of `chunkSize` records wait,
/// so memory stays flat however long the input. Only the reading thread
/// touches the reader once the first record is asked for; a reader released
/// before its end stops its thread at the next chunk.
///
/// The chunks the import is done with go back to the reading thread, which
/// frees them: freed on the import's thread, memory another thread had
/// allocated made the two contend for the allocator. Even so the two cores
/// do more work between them than one did alone (100k NDJSON rows: 0.30 s of
/// CPU where one thread took 0.23 s), for an import that ends sooner
/// (0.24–0.27 s where it took 0.29–0.32 s).
final class ReadAheadReader: RecordReader {
    static let chunkSize = 512
    static let chunksAhead = 4

    /// What one chunk holds: its records, and how the input went on after them.
    private struct Chunk: Sendable {
        var records: [InputRecord]
        /// nil: more follows; `.success` at the end of the input, `.failure` with the reader's error.
        var end: Result<Void, any Error>?
        /// The reader's `declaredColumns`, with the first chunk.
        var declaredColumns: [String]?
    }

    /// The reader, handed to the reading thread: after the first `next()` only it uses the reader.
    private struct Handoff: @unchecked Sendable {
        let reader: any RecordReader
    }

    /// What the two threads share: the chunks read and not yet taken,
    /// whether the import stopped taking them, and the two counts.
    private final class Channel: Sendable {
        struct State {
            var chunks: [Chunk] = []
            var spent: [[InputRecord]] = []
            var stopped = false
        }
        let state = Mutex(State())
        /// Signalled once per chunk put in `state.chunks`.
        let filled = DispatchSemaphore(value: 0)
        /// How many more chunks the reading thread may put there.
        let room = DispatchSemaphore(value: 0)
        init(room: Int) {
            // Signalled up rather than made with the count: libdispatch stops the
            // process when a semaphore is freed below the value it was made with,
            // as `room` is when the import stops taking chunks before the end.
            for _ in 0..<room { self.room.signal() }
        }
    }

    private let reader: any RecordReader
    private let channel = Channel(room: chunksAhead)
    private var started = false
    /// Set when no thread could be started: `next()` asks the reader itself.
    private var readsInline = false
    private var current: [InputRecord] = []
    private var position = 0
    private var end: Result<Void, any Error>?
    private var receivedColumns: [String]?

    var declaredColumns: [String]? { readsInline ? reader.declaredColumns : receivedColumns }

    /// Once it has taken a signal, `next()` throws its error.
    private let interruption: ImportInterruption?

    init(_ reader: any RecordReader, interruption: ImportInterruption? = nil) {
        self.reader = reader
        self.interruption = interruption
        // A wait for the next chunk (input that is slow to come) ends at the signal.
        interruption?.onInterrupt { [channel] in channel.filled.signal() }
    }

    deinit {
        guard started else { return }
        channel.state.withLock { $0.stopped = true }
        // A thread waiting for room wakes, sees the stop and ends.
        channel.room.signal()
    }

    func expect(names: [String]) {
        precondition(!started, "expect(names:) after the first record")
        reader.expect(names: names)
    }

    func next() throws -> InputRecord? {
        if let stop = interruption?.error { throw stop }
        if !started { start() }
        if readsInline {
            let record = try reader.next()
            if record == nil { interruption?.endOfInput() }
            return record
        }
        while position == current.count {
            if let end {
                try end.get()
                interruption?.endOfInput()
                return nil
            }
            channel.filled.wait()
            if let stop = interruption?.error { throw stop }
            // The chunk read is handed back, to be freed on the reading thread.
            let read = current
            current = []
            let chunk = channel.state.withLock { state in
                state.spent.append(read)
                return state.chunks.removeFirst()
            }
            channel.room.signal()
            current = chunk.records
            position = 0
            end = chunk.end
            if let columns = chunk.declaredColumns { receivedColumns = columns }
        }
        defer { position += 1 }
        return current[position]
    }

    private func start() {
        started = true
        let work = ReadingThread(reader: Handoff(reader: reader), channel: channel)
        // No thread to be had: the records are read here, as the reader alone reads them.
        readsInline = !DetachedThread.startIfPossible { work.run() }
    }

    /// The reading thread's loop: a chunk at a time, while there is room
    /// and the import still takes them.
    private final class ReadingThread: Sendable {
        let reader: Handoff
        let channel: Channel

        init(reader: Handoff, channel: Channel) {
            self.reader = reader
            self.channel = channel
        }

        func run() {
            var first = true
            while true {
                channel.room.wait()
                // The chunks the import is done with are freed here, where they were made.
                var spent: [[InputRecord]] = []
                if channel.state.withLock({ state in swap(&spent, &state.spent); return state.stopped }) { return }
                spent.removeAll()
                var chunk = Chunk(records: [], end: nil)
                chunk.records.reserveCapacity(ReadAheadReader.chunkSize)
                do {
                    while chunk.records.count < ReadAheadReader.chunkSize {
                        guard let record = try reader.reader.next() else {
                            chunk.end = .success(())
                            break
                        }
                        chunk.records.append(record)
                    }
                } catch {
                    chunk.end = .failure(error)
                }
                // Known after the first `next()`, and never changed after it.
                if first { chunk.declaredColumns = reader.reader.declaredColumns }
                first = false
                let done = chunk.end != nil
                channel.state.withLock { $0.chunks.append(chunk) }
                channel.filled.signal()
                if done { return }
            }
        }
    }
}
