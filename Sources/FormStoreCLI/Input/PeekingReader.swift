/// A reader whose first records can be looked at before the import reads
/// them (`peek`), then read again in order: an import into an empty table
/// reads its dates' layout off them (`RecordStore.readingDates(of:asIn:)`).
final class PeekingReader: RecordReader {
    private let reader: any RecordReader
    private var peeked: [InputRecord] = []
    /// What ended the look ahead early (a line that does not parse, an
    /// interruption): thrown where the import reaches it, as it would be.
    private var failure: (any Error)?
    private var position = 0
    private var hasPeeked = false

    init(_ reader: any RecordReader) { self.reader = reader }

    var declaredColumns: [String]? { reader.declaredColumns }

    /// How many records an import reads ahead at most: enough for a
    /// column's first 20 values past leading NULLs, few enough to hold.
    static let lookAhead = 1000

    /// Up to `limit` records from the start of the input, read once. An
    /// error ends them quietly: `next()` throws it after them.
    func peek(atMost limit: Int) -> [InputRecord] {
        guard !hasPeeked else { return peeked }
        hasPeeked = true
        do {
            while peeked.count < limit, let record = try reader.next() { peeked.append(record) }
        } catch {
            failure = error
        }
        return peeked
    }

    /// Passed on until records were peeked at (`peek`'s caller tells the
    /// names first, so the records it reads are laid out by them too).
    func expect(names: [String]) {
        if !hasPeeked { reader.expect(names: names) }
    }

    func next() throws -> InputRecord? {
        guard position < peeked.count else {
            if let failure {
                self.failure = nil
                throw failure
            }
            return try reader.next()
        }
        defer { position += 1 }
        return peeked[position]
    }
}
