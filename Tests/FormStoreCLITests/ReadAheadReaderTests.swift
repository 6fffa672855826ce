import FormStoreTestSupport
import Foundation
import Testing
import FormCore
@testable import FormStoreCLI

/// An import reads its input a chunk ahead, on a thread of its own
/// (`ReadAheadReader`): it must see exactly what the reader alone gives, in
/// order, with the reader's end or error where the reader gave it.
@Suite struct ReadAheadReaderTests {
    private func lines(_ count: Int) -> String {
        (0..<count).map { #"{"id": \#($0), "name": "row \#($0)"}"# + "\n" }.joined()
    }

    private func readAll(_ reader: any RecordReader) throws -> [InputRecord] {
        var records: [InputRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    @Test(arguments: [0, 1, ReadAheadReader.chunkSize - 1, ReadAheadReader.chunkSize, ReadAheadReader.chunkSize + 1,
                      ReadAheadReader.chunkSize * (ReadAheadReader.chunksAhead + 2) + 5])
    func theRecordsAreTheReadersInItsOrder(count: Int) throws {
        let text = lines(count)
        let alone = try readAll(InputFormat.ndjson.reader(BufferSource(text, chunkLimit: 100)))
        let ahead = ReadAheadReader(InputFormat.ndjson.reader(BufferSource(text, chunkLimit: 100)))
        #expect(try readAll(ahead) == alone)
        #expect(alone.count == count)
        // The end stays the end.
        #expect(try ahead.next() == nil)
    }

    @Test func theReadersErrorComesAfterTheRecordsBeforeIt() throws {
        let bad = ReadAheadReader.chunkSize + 3
        let text = lines(bad) + "{\"id\": 1,}\n" + lines(10)
        let reader = ReadAheadReader(InputFormat.ndjson.reader(BufferSource(text, chunkLimit: 64)))
        var seen = 0
        do {
            while try reader.next() != nil { seen += 1 }
            Issue.record("no error")
        } catch let error as InputError {
            #expect(seen == bad)
            #expect(error.line == bad + 1)
            #expect(error.message == "expected a quoted key")
        }
    }

    @Test func theNamesToExpectAndACSVHeaderReachTheReader() throws {
        let csv = "id,name\n1,Ann\n2,Bob\n"
        let alone = InputFormat.csv.reader(BufferSource(csv, chunkLimit: 4))
        alone.expect(names: ["id", "name"])
        let reader = ReadAheadReader(InputFormat.csv.reader(BufferSource(csv, chunkLimit: 4)))
        reader.expect(names: ["id", "name"])
        let first = try reader.next()
        let firstAlone = try alone.next()
        #expect(first != nil && first == firstAlone)
        #expect(first?.values["name"] == .text("Ann"))
        #expect(reader.declaredColumns == ["id", "name"])
        #expect(reader.declaredColumns == alone.declaredColumns)
        let second = try alone.next()
        #expect(try reader.next() == second)
        #expect(try reader.next() == nil)
    }

    /// An import that stops early (a database error) lets the reading thread go.
    @Test func aReaderLetGoBeforeItsEndStopsItsThread() throws {
        final class Probe: RecordReader {
            let inner: any RecordReader
            init(_ inner: any RecordReader) { self.inner = inner }
            func next() throws -> InputRecord? { try inner.next() }
        }
        weak var probe: Probe?
        do {
            let inner = Probe(InputFormat.ndjson.reader(BufferSource(lines(ReadAheadReader.chunkSize * 20), chunkLimit: 4096)))
            probe = inner
            let reader = ReadAheadReader(inner)
            #expect(try reader.next() != nil)
        }
        let deadline = Date().addingTimeInterval(10)
        while probe != nil && Date() < deadline { usleep(1_000) }
        #expect(probe == nil)
    }
}
