import Foundation
import Testing
import FormCore
@testable import FormStoreCLI

@Suite struct OutputWriterTests {
    private let columns = [
        OutputColumn(key: "id", kind: .integer),
        OutputColumn(key: "name"),
        OutputColumn(key: "tags", kind: .multichoice),
        OutputColumn(key: "secret", isSecure: true),
    ]

    private func written(_ format: OutputFormat, _ rows: [[FieldValue]], columns: [OutputColumn]? = nil,
                         options: OutputOptions = OutputOptions()) -> String {
        let sink = BufferSink()
        var writer = format.writer(columns: columns ?? self.columns, to: sink, options: options)
        writer.writeAll(rows)
        return sink.text
    }

    @Test func csvQuotesCommasQuotesAndLineBreaks() {
        let text = written(.csv, [
            [1, "plain", .list(["a", "b"]), "pw"],
            [2, "Smith, \"Jo\"\nline two", .list([]), .null],
            [3, "", .null, ""],
        ])
        #expect(text == "id,name,tags,secret\r\n"
            + "1,plain,\"a, b\",••••\r\n"
            + "2,\"Smith, \"\"Jo\"\"\nline two\",\"\",\r\n"
            + "3,\"\",,\"\"\r\n")
    }

    @Test func csvWithoutRowsStillHasItsHeader() {
        #expect(written(.csv, []) == "id,name,tags,secret\r\n")
    }

    @Test func jsonArrayIsStreamedRowByRow() {
        let sink = BufferSink()
        var writer = JSONWriter(columns: columns, sink: sink, options: OutputOptions(), style: .array)
        writer.write([1, "Ann", .list(["x"]), "pw"])
        // The first row is out before the array is finished.
        #expect(sink.text == "[\n  {\"id\": 1, \"name\": \"Ann\", \"tags\": [\"x\"], \"secret\": \"••••\"}")
        writer.write([2, "Bob", .null, .null])
        writer.finish()
        #expect(sink.text == "[\n  {\"id\": 1, \"name\": \"Ann\", \"tags\": [\"x\"], \"secret\": \"••••\"},\n"
            + "  {\"id\": 2, \"name\": \"Bob\", \"tags\": null, \"secret\": null}\n]\n")
        #expect(written(.json, []) == "[]\n")
    }

    @Test func jsonOutputParsesBackWithFoundation() throws {
        let text = written(.json, [[9_223_372_036_854_775_807, "quote \" back \\ tab \t bell \u{7}", .list([1.5, true]), "s"]],
                           options: OutputOptions(revealSecure: true))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        #expect(parsed?.first?["name"] as? String == "quote \" back \\ tab \t bell \u{7}")
        #expect(parsed?.first?["secret"] as? String == "s")
        #expect((parsed?.first?["id"] as? NSNumber)?.int64Value == Int64.max)
    }

    @Test func ndjsonIsOneObjectPerLine() {
        let text = written(.ndjson, [[1, "a\nb", .null, .null], [2, "c", .null, .null]])
        #expect(text == "{\"id\": 1, \"name\": \"a\\nb\", \"tags\": null, \"secret\": null}\n"
            + "{\"id\": 2, \"name\": \"c\", \"tags\": null, \"secret\": null}\n")
    }

    @Test func valuesAreWrittenByKind() {
        let date = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z
        let columns = [OutputColumn(key: "d", kind: .date), OutputColumn(key: "t"), OutputColumn(key: "x"),
                       OutputColumn(key: "b"), OutputColumn(key: "blob")]
        let text = written(.ndjson, [[.date(date), .date(date.addingTimeInterval(0.25)), .double(.nan), .bool(false),
                                      .data(Data([1, 2, 3]))]], columns: columns)
        #expect(text == "{\"d\": \"2000-01-01\", \"t\": \"2000-01-01T00:00:00.250Z\", \"x\": \"NaN\", \"b\": false, \"blob\": {\"$base64\": \"AQID\"}}\n")
        #expect(ValueText.text(.date(date), kind: .datetime, blobsBySize: true) == "2000-01-01 00:00:00")
        #expect(ValueText.text(.double(2), kind: nil, blobsBySize: true) == "2.0")
    }

    @Test func blobsAreShownBySize() {
        #expect(ValueText.blobSize(1) == "<blob 1 byte>")
        #expect(ValueText.blobSize(900) == "<blob 900 bytes>")
        #expect(ValueText.blobSize(1229) == "<blob 1.2 KB>")
        #expect(ValueText.blobSize(5 * 1024 * 1024) == "<blob 5.0 MB>")
    }

    @Test func tableAlignsCapsAndNeverDumpsBlobs() {
        let columns = [OutputColumn(key: "id", kind: .integer), OutputColumn(key: "name"), OutputColumn(key: "photo")]
        let text = written(.table, [
            [7, "Ann", .data(Data(count: 1229))],
            [12, "A very long name that goes on", .null],
            [3, "tab\there\nand \u{1B}[31mred", .null],
        ], columns: columns, options: OutputOptions(maxColumnWidth: 12))
        let expected = [
            "id  name          photo",
            " 7  Ann           <blob 1.2 K…",
            "12  A very long…",
            " 3  tab\\there\\n…",
        ]
        #expect(text == expected.joined(separator: "\n") + "\n")
    }

    /// The widths are fixed after the sample; a later value wider than its
    /// column runs past it, and only one wider than `maxColumnWidth` is cut
    /// (before, `abcdefgh` was cut to the sample's 4 columns, and an id of
    /// 1000 after 999 rows shown as `10…`). A number or a key is never cut.
    @Test func tableFixesWidthsAfterItsSample() {
        let sink = BufferSink()
        var key = OutputColumn(key: "code")
        key.isKey = true
        var writer = TableWriter(columns: [OutputColumn(key: "name"), OutputColumn(key: "n", kind: .integer), key],
                                 sink: sink, options: OutputOptions(maxColumnWidth: 6, tableSampleSize: 2))
        writer.write(["ab", 1, "k"])
        #expect(sink.text.isEmpty)
        writer.write(["abcd", 2, "k2"])
        #expect(sink.text == "name  n  code\nab    1  k\nabcd  2  k2\n")
        writer.write(["abcde", 3, "k3"])
        writer.write(["abcdefgh", 1000, "key-that-is-long"])
        writer.finish()
        #expect(sink.text == "name  n  code\nab    1  k\nabcd  2  k2\nabcde  3  k3\nabcde…  1000  key-that-is-long\n")
    }

    @Test func tableHeaderIsBoldOnlyWithColour() {
        let plain = written(.table, [], columns: [OutputColumn(key: "a")])
        #expect(plain == "a\n")
        let coloured = written(.table, [], columns: [OutputColumn(key: "a")], options: OutputOptions(usesColor: true))
        #expect(coloured == "\u{1B}[1ma\u{1B}[0m\n")
    }

    @Test func textShowsOneRecordAsAlignedLabels() {
        let columns = [OutputColumn(key: "name", label: "Name"), OutputColumn(key: "notes", label: "Notes"),
                       OutputColumn(key: "pw", label: "Password", isSecure: true), OutputColumn(key: "photo", label: "Photo")]
        let text = written(.text, [["Ann", "line one\nline two", "hunter2", .data(Data(count: 10))]], columns: columns)
        #expect(text == """
        Name:     Ann
        Notes:    line one
                  line two
        Password: ••••
        Photo:    <blob 10 bytes>

        """)
        let revealed = written(.text, [["Ann", "", "hunter2", .null]], columns: columns,
                               options: OutputOptions(revealSecure: true))
        #expect(revealed.contains("Password: hunter2\n"))
        // Empty text is shown as typed, `""`; NULL as nothing.
        #expect(revealed.contains("Notes:    \"\"\n"))
        #expect(revealed.hasSuffix("Photo:\n"))
    }
}
