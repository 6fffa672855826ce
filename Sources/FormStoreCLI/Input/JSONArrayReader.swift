import FormCore

/// A JSON array of objects, parsed one object at a time from what has been
/// read so far: an object cut off at the end of the buffer is read again
/// once more input has arrived, so the array is never held whole.
final class JSONArrayReader: RecordReader {
    private let source: any ByteSource
    /// The groups whose rows a record may hold (`JSONRecord.record`).
    private let groups: Set<String>
    private var names: ExpectedNames?
    private var reader = JSONRecord.reader([])
    private var atEnd = false
    private var started = false
    private var finished = false

    init(_ source: any ByteSource, groups: Set<String> = []) {
        self.source = source
        self.groups = groups
    }

    func expect(names: [String]) {
        self.names = ExpectedNames(names)
    }

    func next() throws -> InputRecord? {
        guard !finished else { return nil }
        if !started {
            started = true
            while reader.remainingBytes.count < 3, try refill(after: reader) {}
            reader.skipByteOrderMark()
            guard try peek() == UInt8(ascii: "[") else {
                // An object first is most likely NDJSON (export's default) in a file named .json.
                let hint = try peek() == UInt8(ascii: "{") ? " (an object per line is NDJSON: give --format ndjson)" : ""
                throw error("expected a JSON array of objects" + hint)
            }
            reader.skipByte()
            if try peek() == UInt8(ascii: "]") {
                reader.skipByte()
                return try end()
            }
        } else {
            switch try peek() {
            case UInt8(ascii: ","): reader.skipByte()
            case UInt8(ascii: "]"): reader.skipByte(); return try end()
            default: throw error("expected ',' or ']' after an object")
            }
        }
        guard let first = try peek() else { throw error("expected a JSON object, found the end of the input") }
        guard first == UInt8(ascii: "{") else { throw error("expected a JSON object") }
        let line = reader.line
        while true {
            let mark = reader
            do {
                let members = try JSONRecord.read(&reader, names: names)
                let (values, rows) = try JSONRecord.record(members, line: line, groups: groups)
                return InputRecord(line: line, values: values, rows: rows)
            } catch let error as JSONSyntaxError where error.isTruncated {
                reader = mark
                guard try refill(after: mark) else { throw InputError(error) }
            } catch let error as JSONSyntaxError {
                throw InputError(error)
            }
        }
    }

    /// The next byte after any whitespace, reading more as needed; nil at the end of the input.
    private func peek() throws -> UInt8? {
        while true {
            reader.skipSpace()
            if let byte = reader.current { return byte }
            guard try refill(after: reader) else { return nil }
        }
    }

    /// Reads more input to follow what `mark` has not read yet (at least as
    /// much again, so a long object is retried only a few times); false at the end.
    private func refill(after mark: JSONReader) throws -> Bool {
        guard !atEnd else { return false }
        let kept = mark.remainingBytes
        let chunk = try source.read(upTo: max(64 * 1024, kept.count))
        if chunk.isEmpty { atEnd = true; return false }
        reader = JSONRecord.reader(Array(kept) + chunk, at: mark.position)
        return true
    }

    private func end() throws -> InputRecord? {
        finished = true
        guard try peek() == nil else { throw error("unexpected text after the array") }
        return nil
    }

    private func error(_ message: String) -> InputError {
        InputError(line: reader.line, message: message)
    }
}

@available(*, unavailable)
extension JSONArrayReader: Sendable {}
