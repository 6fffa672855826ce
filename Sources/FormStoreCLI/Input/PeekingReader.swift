/// A reader whose first records can be looked at before the import reads
/// them (`peek`), then read again in order: an import into an empty table
/// reads its dates' layout off them (`RecordStore.readingDates(of:asIn:)`).
final class PeekingReader: RecordReader {
    private let reader: any RecordReader
    private var peeked: [InputRecord] = []
    private var position = 0
    private var hasPeeked = false

    init(_ reader: any RecordReader) { self.reader = reader }

    var declaredColumns: [String]? { reader.declaredColumns }

    /// Up to `count` records from the start of the input, read once.
    func peek(_ count: Int) throws -> [InputRecord] {
        if !hasPeeked {
            hasPeeked = true
            while peeked.count < count, let record = try reader.next() { peeked.append(record) }
        }
        return peeked
    }

    /// Passed on until records were peeked at, which were read by their own names.
    func expect(names: [String]) {
        if !hasPeeked { reader.expect(names: names) }
    }

    func next() throws -> InputRecord? {
        guard position < peeked.count else { return try reader.next() }
        defer { position += 1 }
        return peeked[position]
    }
}
