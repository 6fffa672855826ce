import FormStoreTestSupport
import Foundation
import Testing

/// `export` writes each cell straight from SQLite's column to bytes: the
/// cells whose spelling is decided byte by byte (a text that reads like a
/// number, a formula, bytes that are not UTF-8, base64's padding, a REAL that
/// is infinite) come out as docs/fidelity.md says, and a long export is whole.
@Suite struct ExportEncodingTests {
    static let sql = """
    CREATE TABLE t (id INTEGER PRIMARY KEY, v, w BLOB);
    INSERT INTO t VALUES
        (1, CAST(X'FF41C3' AS TEXT), X'01'), (2, 'a' || char(8232) || 'b' || char(1) || char(127) || '"\\', X'0102'),
        (3, '42', X'010203'), (4, '-5', X'01020304'), (5, '1.5', NULL), (6, '\\x00ff', X''), (7, '2024-01-05', NULL),
        (8, '007', NULL), (9, '+5', NULL), (10, '-0', NULL), (11, '0', NULL), (12, '12345678901234567890', NULL),
        (13, '1e-07', NULL), (14, '=SUM(A1)', NULL), (15, 'say "hi", twice', NULL), (16, 9e999, NULL),
        (17, '', NULL), (18, NULL, NULL), (19, '9223372036854775807', NULL), (20, '1.50', NULL), (21, 1e20, NULL);

    """

    @Test func csvQuotesExactlyTheCellsThatWouldReadBackAsSomethingElse() throws {
        let db = try DemoDatabase(sql: Self.sql)
        let raw = try db.run(["export", "t", "--format", "csv", "--raw-csv"])
        #expect(raw.code == 0, "\(raw)")
        // Row 1's text is not UTF-8: written repaired, and said so (it will not import back the same).
        #expect(raw.errors == "formstore: warning: 1 text value(s) were not valid UTF-8 and were written with U+FFFD "
            + "in place of each bad byte sequence (the first: row 1, v); they will not import back the same\n", "\(raw)")
        #expect(raw.output == """
            id,v,w\r
            1,\u{FFFD}A\u{FFFD},\\x01\r
            2,"a\u{2028}b\u{01}\u{7F}""\\",\\x0102\r
            3,"42",\\x010203\r
            4,"-5",\\x01020304\r
            5,"1.5",\r
            6,"\\x00ff",\\x\r
            7,2024-01-05,\r
            8,007,\r
            9,+5,\r
            10,-0,\r
            11,"0",\r
            12,12345678901234567890,\r
            13,"1e-07",\r
            14,=SUM(A1),\r
            15,"say ""hi"", twice",\r
            16,Infinity,\r
            17,"",\r
            18,,\r
            19,"9223372036854775807",\r
            20,1.50,\r
            21,1e+20,\r

            """)
        // Protected, a formula's cell gets its ' (and -5, +5 and -0 too: text, not numbers).
        let protected = try db.run(["export", "t", "--format", "csv", "--where", "id>=8", "--where", "id<=14"])
        #expect(protected.output == """
            id,v,w\r
            8,007,\r
            9,'+5,\r
            10,'-0,\r
            11,"0",\r
            12,12345678901234567890,\r
            13,"1e-07",\r
            14,'=SUM(A1),\r

            """)
    }

    @Test func jsonEscapesTextAndPadsBase64() throws {
        let db = try DemoDatabase(sql: Self.sql)
        let lines = try db.run(["export", "t", "--where", "id<=4"])
        #expect(lines.output == #"""
            {"id": 1, "v": "\#u{FFFD}A\#u{FFFD}", "w": {"$base64": "AQ=="}}
            {"id": 2, "v": "a\u2028b\u0001\u007f\"\\", "w": {"$base64": "AQI="}}
            {"id": 3, "v": "42", "w": {"$base64": "AQID"}}
            {"id": 4, "v": "-5", "w": {"$base64": "AQIDBA=="}}

            """#)
        let array = try db.run(["export", "t", "--format", "json", "--where", "id>=16", "--where", "id<=18"])
        #expect(array.output == """
            [
              {"id": 16, "v": "Infinity", "w": null},
              {"id": 17, "v": "", "w": null},
              {"id": 18, "v": null, "w": null}
            ]

            """)
        let large = try db.run(["export", "t", "--where", "id=21"])
        #expect(large.output == #"{"id": 21, "v": 1e+20, "w": null}"# + "\n")
        let none = try db.run(["export", "t", "--format", "json", "--where", "id=99"])
        #expect(none.output == "[]\n")
    }

    /// Far more than one write's worth of bytes: every row arrives, in order.
    @Test func aLongExportIsWhole() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE n (id INTEGER PRIMARY KEY, label TEXT);
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 40000)
            INSERT INTO n SELECT i, 'row number ' || i FROM k;

            """)
        for format in ["ndjson", "csv"] {
            let run = try db.run(["export", "n", "--format", format])
            #expect(run.code == 0, "\(run)")
            // Split at each LF byte: as a Character, CSV's CR LF is one.
            let lines = Array(run.output.utf8).split(separator: 10).map { String(decoding: $0, as: UTF8.self) }
            #expect(lines.count == (format == "csv" ? 40001 : 40000), "\(format)")
            #expect(lines.last == (format == "csv" ? "40000,row number 40000\r" : #"{"id": 40000, "label": "row number 40000"}"#))
            #expect(lines.dropLast().last == (format == "csv" ? "39999,row number 39999\r" : #"{"id": 39999, "label": "row number 39999"}"#))
        }
    }
}
