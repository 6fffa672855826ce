import FormStoreTestSupport
import Foundation
import Testing
import FormCore
@testable import FormStoreCLI

@Suite struct InputReaderTests {
    private func readAll(_ format: InputFormat, _ text: String, chunk: Int = 3) throws -> [InputRecord] {
        let reader = format.reader(BufferSource(text, chunkLimit: chunk))
        var records: [InputRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    /// `readAll` with the reader told the names to expect first, as an import tells it.
    private func readAll(_ format: InputFormat, _ text: String, expecting names: [String], chunk: Int = 3) throws -> [InputRecord] {
        let reader = format.reader(BufferSource(text, chunkLimit: chunk))
        reader.expect(names: names)
        var records: [InputRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    private func failure(_ format: InputFormat, _ text: String, expecting names: [String]? = nil) -> InputError? {
        do {
            _ = try names.map { try readAll(format, text, expecting: $0) } ?? readAll(format, text)
            return nil
        } catch let error as InputError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test func ndjsonReadsOneObjectPerLineWithLineNumbers() throws {
        let records = try readAll(.ndjson, """
        {"id": 1, "name": "Ann", "tags": ["a", "b"], "score": 1.5, "ok": true, "none": null}

        {"id": -2, "name": "B\\u00f6b \\ud83d\\ude00", "big": 9223372036854775807}
        """)
        #expect(records.count == 2)
        #expect(records[0].line == 1)
        #expect(records[0].values == ["id": 1, "name": "Ann", "tags": .list(["a", "b"]), "score": 1.5, "ok": true, "none": .null])
        #expect(records[1].line == 3)
        #expect(records[1].values == ["id": -2, "name": "Böb 😀", "big": .int(.max)])
    }

    /// A nested object, or a list holding objects, is its JSON text, as
    /// `sqlite-utils` writes a JSON column's document nested: as written less
    /// the space between its tokens (an escape stays one). A list of plain
    /// values stays a list; `{"$base64": …}` is bytes.
    @Test func aNestedObjectIsItsJSONText() throws {
        let records = try readAll(.ndjson, """
        {"meta": {"k": 1, "a": [1.5, "x", null, true], "e": {}}, "items": [{"n": 1}, {"n": "\\u00e9"}], "tags": ["a"]}
        {"blob": {"$base64": "AP8="}, "deep": [[{"x": 1}]]}
        """)
        #expect(records[0].values == ["meta": .text(#"{"k":1,"a":[1.5,"x",null,true],"e":{}}"#),
                                      "items": .text(#"[{"n":1},{"n":"\u00e9"}]"#), "tags": .list(["a"])])
        #expect(records[1].values == ["blob": .data(Data([0, 255])), "deep": .text(#"[[{"x":1}]]"#)])
        #expect(try readAll(.json, "[{\"a\": [{\"b\": 1}]}]")[0].values == ["a": .text(#"[{"b":1}]"#)])
    }

    @Test func ndjsonErrorsNameTheLine() {
        #expect(failure(.ndjson, "{\"a\": 1}\n{\"a\": 2,}\n") == InputError(line: 2, column: 9, message: "expected a quoted key"))
        #expect(failure(.ndjson, "{\"a\": 1}\n\n[1, 2]\n") == InputError(line: 3, message: "expected a JSON object"))
        #expect(failure(.ndjson, "{\"a\": 1} {\"b\": 2}\n")?.message == "unexpected text after the object (one object per line)")
        #expect(failure(.ndjson, "{\"a\": 1, \"a\": 2}") == InputError(line: 1, column: 10, message: "duplicate key 'a'"))
        #expect(failure(.ndjson, "{\"a\": {\"$base64\": \"not base64!\"}}")?.message == "field 'a': $base64 is not valid base64")
        #expect(failure(.ndjson, "{\"a\": 01}")?.message == "invalid number")
        #expect(failure(.ndjson, "{\"a\": tru}")?.message == "invalid literal, expected 'true'")
        #expect(failure(.ndjson, "{\"a\": \"open")?.message == "unterminated string")
    }

    /// The names an import expects lay its records out and let keys be matched in place: what is read is the same.
    @Test func expectedNamesChangeNoRecord() throws {
        let names = ["id", "name", "note", "n"]
        let text = [
            #"{"id": 1, "name": "Ann", "note": null, "n": 9223372036854775807}"#,
            // Keys in another order, then escaped keys (one spelling a name, one a name's prefix).
            #"{"n": -9223372036854775808, "note": "", "name": "Bo", "id": 2}"#,
            #"{"na\u006de": "Cy", "i\u0064": 3, "nam": "x", "\u006e": 0}"#,
            // Unicode keys and values, a key no name expects, numbers at their limits.
            #"{"id": 4, "名前": "名", "name": "e\u0301 é 😀 \ud83d\ude00", "extra": 1.5e-300, "n": -0, "note": 1.7976931348623157e308}"#,
            // Nested values: a list, a BLOB, a reference's labels (no value), an empty list.
            #"{"id": 5, "note": ["a", 1, null, true], "name": {"$base64": "AP8="}, "_labels": {"id": "Five"}, "n": []}"#,
            #"{}"#,
        ].joined(separator: "\n")
        let plain = try readAll(.ndjson, text)
        #expect(plain.count == 6)
        #expect(plain[1].values == ["n": .int(.min), "note": "", "name": "Bo", "id": 2])
        #expect(plain[2].values == ["name": "Cy", "id": 3, "nam": "x", "n": 0])
        #expect(plain[3].values == ["id": 4, "名前": "名", "name": "e\u{301} é 😀 😀", "extra": .double(1.5e-300), "n": 0,
                                    "note": .double(1.7976931348623157e308)])
        #expect(plain[4].values == ["id": 5, "note": .list(["a", 1, .null, true]), "name": .data(Data([0, 0xFF])), "n": .list([])])
        #expect(plain[0].values["note"] == .null && plain[1].values["note"] == "")
        #expect(plain[5].values.dictionary.isEmpty)
        for chunk in [1, 5, 100_000] {
            #expect(try readAll(.ndjson, text, expecting: names, chunk: chunk) == plain)
            #expect(try readAll(.json, "[" + text.split(separator: "\n").joined(separator: ",\n") + "]",
                                expecting: names, chunk: chunk) == plain)
        }
        // Laid out by the names: a record holds them in their order, whatever order its keys came in.
        #expect(try readAll(.ndjson, text, expecting: names)[1].values.map { $0.name } == names)
    }

    /// A name that matches no expected name exactly is the one it equals
    /// ignoring case, as SQLite matches column names (`ID`, `Name` from a
    /// spreadsheet); names that differ only in case are matched exactly only.
    @Test func expectedNamesAreMatchedIgnoringCaseWhenOnlyOneFits() throws {
        let names = ["id", "name", "note", "Note"]
        let csv = try readAll(.csv, "ID,Name,note,NOTE,Other\n1,Ann,a,b,c\n", expecting: names)
        #expect(csv[0].values.names == ["id", "name", "note", "NOTE", "Other"])
        let json = try readAll(.ndjson, #"{"ID": 1, "NAME": "Ann", "Note": "b", "nOTE": "x"}"#, expecting: names)
        #expect(json[0].values.dictionary == ["id": 1, "name": "Ann", "Note": "b", "nOTE": "x"])
        #expect(failure(.csv, "id,ID\n1,2\n", expecting: names)
            == InputError(line: 1, message: "duplicate column 'ID' in the header"))
        #expect(failure(.ndjson, #"{"id": 1, "ID": 2}"#, expecting: names)?.message == "duplicate key 'ID'")
    }

    @Test func expectedNamesRefuseWhatTheyRefuseWithout() {
        let names = ["a", "b"]
        for text in ["{\"a\": 1, \"a\": 2}", "{\"b\": 1, \"a\": 2, \"b\": 3}", "{\"x\": 1, \"x\": 2}",
                     "{\"a\": 1, \"\\u0061\": 2}", "{\"a\": {\"b\": 1}, \"a\" 2}", "{\"a\": {\"b\": 1}} x",
                     "{\"a\": {\"b\": 1}, \"b\": tru}", "{\"a\": {\"$base64\": \"!\"}}", "{\"b\": \"\\ud800\"}",
                     "{\"a\": 1,}", "{\"a\" 1}", "{\"a\": 9223372036854775808}"] {
            let plain = failure(.ndjson, text)
            #expect(plain != nil, "\(text)")
            #expect(failure(.ndjson, text, expecting: names) == plain, "\(text)")
        }
        #expect(failure(.ndjson, "{\"a\": 1, \"\\u0061\": 2}", expecting: names)
            == InputError(line: 1, column: 10, message: "duplicate key 'a'"))
        #expect(failure(.ndjson, "{\"a\": {\"b\": 1}} x", expecting: names)?.message
            == "unexpected text after the object (one object per line)")
    }

    /// A record of many names (a hostile line of thousands of keys, a header
    /// of thousands of columns) finds them by an index, not a scan of the
    /// names before each (which took seconds): every name and value kept,
    /// a repeated one still refused, with and without expected names.
    @Test func aRecordOfManyNamesKeepsEveryOneAndRefusesARepeat() throws {
        let keys = (0..<5000).map { "k\($0)" }
        let line = "{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
        for expecting in [nil, ["id", "k7"]] {
            let records = try expecting.map { try readAll(.ndjson, line, expecting: $0, chunk: 1 << 16) } ?? readAll(.ndjson, line, chunk: 1 << 16)
            #expect(records.count == 1 && records[0].values["k4999"] == .int(4999) && records[0].values["k0"] == .int(0))
            #expect(Array(records[0].values).count == 5000)
            let repeated = String(line.dropLast()) + #", "k4321": 1}"#
            #expect(failure(.ndjson, repeated, expecting: expecting)?.message == "duplicate key 'k4321'")
        }
        let header = keys.joined(separator: ",")
        #expect(failure(.csv, header + ",k4321\n" + Array(repeating: "1", count: 5001).joined(separator: ","))
                == InputError(line: 1, message: "duplicate column 'k4321' in the header"))
        let csv = try readAll(.csv, header + "\n" + keys.indices.map(String.init).joined(separator: ","), chunk: 1 << 16)
        #expect(csv.first?.values["k4999"] == .int(4999))
    }

    @Test func integersBeyondInt64AreRefused() {
        #expect(failure(.ndjson, "{\"n\": 1}\n{\"n\": 9223372036854775808}")
            == InputError(line: 2, column: 7, message: "integer out of range"))
        #expect(failure(.ndjson, "{\"n\": -9223372036854775809}")?.message == "integer out of range")
        #expect(failure(.json, "[{\"n\": 1e999}]")?.message == "number out of range")
    }

    @Test func aLoneSurrogateIsRefusedAtItsLineAndColumn() {
        #expect(failure(.ndjson, "{\"a\": \"ok\"}\n{\"a\": \"x\\ud800y\"}\n")
            == InputError(line: 2, column: 9, message: "unpaired surrogate in \\u escape"))
        #expect(failure(.ndjson, "{\"a\": \"\\udc00\"}")
            == InputError(line: 1, column: 8, message: "unpaired surrogate in \\u escape"))
        // Read one byte at a time, the array reader meets the escape cut in two and reads on.
        #expect(failure(.json, "[{\"a\": \"ok\"},\n {\"a\": \"\\ud83d\\u0041\"}]")
            == InputError(line: 2, column: 9, message: "unpaired surrogate in \\u escape"))
        #expect(failure(.json, "[{\"a\": \"\\ud83d")
            == InputError(line: 1, column: 9, message: "unpaired surrogate in \\u escape"))
    }

    @Test func aJSONArrayOnOneLineCutAnywhereReadsTheSame() throws {
        let text = "[" + (1...50).map { "{\"id\": \($0), \"name\": \"n\\u00e9\\ud83d\\ude00 \($0)\"}" }.joined(separator: ",") + "]"
        for chunk in [1, 2, 7, 64, 100_000] {
            let records = try readAll(.json, text, chunk: chunk)
            #expect(records.count == 50)
            #expect(records.last?.values == ["id": 50, "name": "né😀 50"])
        }
    }

    @Test func integersAndDoublesStayApart() throws {
        let values = try readAll(.ndjson, "{\"a\": 1, \"b\": 1.0, \"c\": 1e2, \"d\": -0}")[0].values
        #expect(values == ["a": .int(1), "b": .double(1), "c": .double(100), "d": .int(0)])
    }

    @Test func jsonArrayYieldsObjectsWithTheirLines() throws {
        let records = try readAll(.json, """
        [
          {"id": 1},
          {
            "id": 2, "list": []
          }
        ]
        """, chunk: 1)
        #expect(records.map(\.line) == [2, 3])
        #expect(records[1].values == ["id": 2, "list": .list([])])
        #expect(try readAll(.json, " [ ] ").isEmpty)
        #expect(try readAll(.json, "\u{FEFF}[{\"a\": 1}]").count == 1)
    }

    @Test func jsonArrayErrors() {
        #expect(failure(.json, "{\"a\": 1}") == InputError(line: 1, message: "expected a JSON array of objects (an object per line is NDJSON: give --format ndjson)"))
        #expect(failure(.json, "[{\"a\": 1},\n 2]") == InputError(line: 2, message: "expected a JSON object"))
        #expect(failure(.json, "[{\"a\": 1}\n{\"b\": 1}]") == InputError(line: 2, message: "expected ',' or ']' after an object"))
        #expect(failure(.json, "[{\"a\": 1}] x")?.message == "unexpected text after the array")
    }

    @Test func csvReadsQuotedFieldsWithLineBreaks() throws {
        let records = try readAll(.csv, "id,name,note\r\n1,Ann,\"said \"\"hi\"\"\r\nthen left\"\r\n2,,\"\"\n3,\"a,b\",x")
        #expect(records.map(\.line) == [2, 4, 5])
        #expect(records[0].values == ["id": 1, "name": "Ann", "note": "said \"hi\"\r\nthen left"])
        // Unquoted empty is NULL, quoted empty is an empty text.
        #expect(records[1].values == ["id": 2, "name": .null, "note": ""])
        #expect(records[2].values == ["id": 3, "name": "a,b", "note": "x"])
    }

    @Test func csvErrorsNameTheLine() {
        #expect(failure(.csv, "a,b\n1,2\n3\n") == InputError(line: 3, message: "expected 2 fields, found 1"))
        #expect(failure(.csv, "a,b\n1,\"open\n\nstill open") == InputError(line: 2, message: "unterminated quoted field"))
        #expect(failure(.csv, "a,b\n\"x\"y,1") == InputError(line: 2, message: "unexpected character after a closing quote"))
        #expect(failure(.csv, "a,a\n1,2") == InputError(line: 1, message: "duplicate column 'a' in the header"))
        #expect(failure(.csv, "a,,b\n") == InputError(line: 1, message: "empty column name in the header"))
        // Bytes that are not UTF-8, in a row's last field and in its first: the row's own line either way.
        for row: [UInt8] in [[0x31, 0x2C, 0xFF, 0x0A], [0xFF, 0x2C, 0x31, 0x0A]] {
            let reader = InputFormat.csv.reader(BufferSource(bytes: Array("a,b\n1,2\n".utf8) + row + Array("3,4\n".utf8)))
            #expect(throws: InputError(line: 3, message: "invalid UTF-8")) { while try reader.next() != nil {} }
        }
    }

    @Test func csvCellsKeepTheirStorageClassAndOtherDelimitersWork() throws {
        let reader = InputFormat.csv.reader(BufferSource("a\tb\tc\n1\t\"1\"\t\\x00FF\n0.1\t007\t\\xZZ\n", chunkLimit: 2),
                                            csvDelimiter: UInt8(ascii: "\t"))
        var records: [InputRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(records.map(\.values) == [["a": .int(1), "b": "1", "c": .data(Data([0, 0xFF]))],
                                           ["a": .double(0.1), "b": "007", "c": "\\xZZ"]])
    }

    @Test func jsonBlobsAreTagged() throws {
        let records = try readAll(.ndjson, #"{"a": {"$base64": "AP8="}, "b": "AP8="}"#)
        #expect(records.first?.values == ["a": .data(Data([0, 0xFF])), "b": "AP8="])
    }

    @Test func csvRoundTripsWhatTheWriterWrites() throws {
        let columns = [OutputColumn(key: "name"), OutputColumn(key: "note")]
        let sink = BufferSink()
        var writer = CSVWriter(columns: columns, sink: sink, options: OutputOptions())
        let rows: [[FieldValue]] = [["Smith, \"Jo\"", "two\nlines"], ["", .null], [" padded ", "é"],
                                    // Storage classes survive: text that looks like a number or a BLOB is quoted.
                                    [.int(Int64.max), "42"], [.double(0.1), "1e-300"], [.double(1e-300), "\\x00"],
                                    [.data(Data([0, 0xFF])), .data(Data())]]
        writer.writeAll(rows)
        let records = try readAll(.csv, sink.text, chunk: 2)
        #expect(records.map { [$0.values["name"]!, $0.values["note"]!] } == rows)
    }

    @Test func readersPullFromAFileInChunks() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/rows.ndjson"
        var text = ""
        for i in 1...2000 { text += "{\"id\": \(i), \"name\": \"row \(i)\"}\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = NDJSONReader(try FileDescriptorSource(path: path))
        var count = 0
        var last: InputRecord?
        while let record = try reader.next() { count += 1; last = record }
        #expect(count == 2000)
        #expect(last == InputRecord(line: 2000, values: ["id": 2000, "name": "row 2000"]))
        #expect(throws: CLIError.self) { try FileDescriptorSource(path: scratch.path + "/missing.csv") }
    }

    @Test func formatFromExtension() {
        #expect(InputFormat(pathExtensionOf: "a/b.JSONL") == .ndjson)
        #expect(InputFormat(pathExtensionOf: "x.csv") == .csv)
        #expect(InputFormat(pathExtensionOf: "x.txt") == nil)
        #expect(InputFormat(pathExtensionOf: "noext") == nil)
    }
}
