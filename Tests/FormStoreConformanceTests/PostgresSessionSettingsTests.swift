import FormStoragePostgres
import FormStoreTestSupport
import Foundation
import Testing

/// What FormStore reads and writes on PostgreSQL does not follow the settings
/// of the database, the URL or the environment: each connection sets UTF-8,
/// ISO dates, floats to the last digit and hex bytes itself. Text with NUL,
/// which PostgreSQL's text cannot hold, is refused rather than cut short.
@Suite struct PostgresSessionSettingsTests {
    static let schema = Schema(sqlite: "", postgres: """
        CREATE TABLE p (id integer PRIMARY KEY, name text, ts timestamp, r double precision, b bytea);
        INSERT INTO p VALUES (1, 'a', '2024-01-02 08:00:00', 0.30000000000000004, '\\x00ff41');
        """)

    /// A database whose own settings differ: its rows export as on any other.
    @Test func theDatabasesOwnSettingsDoNotChangeWhatIsReadOrWritten() throws {
        let backend = try TestBackend(.postgres, schema: Self.schema)
        let expected = try runBinary(["--db", backend.location, "export", "p"])
        #expect(expected.output == #"{"id": 1, "name": "a", "ts": "2024-01-02 08:00:00", "r": 0.30000000000000004, "b": {"$base64": "AP9B"}}"# + "\n",
                "\(expected)")
        let database = try #require(backend.location.split(separator: "?")[0].split(separator: "/").last)
        try backend.execute("""
            ALTER DATABASE \(database) SET DateStyle = 'SQL, DMY';
            ALTER DATABASE \(database) SET extra_float_digits = 0;
            ALTER DATABASE \(database) SET bytea_output = 'escape';
            ALTER DATABASE \(database) SET client_encoding = 'LATIN1';
            """)
        let exported = try runBinary(["--db", backend.location, "export", "p"], environment: ["PGCLIENTENCODING": "LATIN1"])
        #expect(exported.output == expected.output, "\(exported)")
        // Text typed with a client encoding of LATIN1 in the environment is stored as typed.
        let set = try runBinary(["--db", backend.location, "set", "p", "1", "name=Zoë 日本"], environment: ["PGCLIENTENCODING": "LATIN1"])
        #expect(set.code == 0, "\(set)")
        #expect(try backend.row("SELECT name, octet_length(name) FROM p") == ["Zoë 日本", "11"])
    }

    /// NUL in text was cut off by the C string it was sent as, and the rest lost with exit 0.
    @Test func textHoldingNULIsRefused() throws {
        let backend = try TestBackend(.postgres, schema: Self.schema)
        let set = try runBinary(["--db", backend.location, "set", "p", "1", #"name:="keep\u0000LOST""#])
        #expect(set.code == 65, "\(set)")
        #expect(set.errors.contains("NUL (U+0000)"), "\(set)")
        let imported = try runBinary(["--db", backend.location, "import", "p"], stdin: #"{"id": 2, "name": "x\u0000y"}"# + "\n")
        #expect(imported.code == 65, "\(imported)")
        #expect(try backend.row("SELECT name FROM p WHERE id = 1")?[0] == "a")
        #expect(try backend.count("SELECT count(*) FROM p") == 1)
    }
}

/// A number or a time the column would round is refused, not stored
/// rounded: what is written is what was given, as on SQLite.
@Suite struct PostgresPrecisionTests {
    @Test func aValueTheColumnWouldRoundIsRefused() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE m (id integer PRIMARY KEY, price numeric(10,2), r real, at timestamp(0));
            INSERT INTO m VALUES (1, 1.00, 1, '2024-01-02 10:00:00');
            """))
        for assignment in ["price=3.456", "r=16777217", "at=2024-01-02T10:00:00.7Z"] {
            let set = try runBinary(["--db", backend.location, "set", "m", "1", assignment])
            #expect(set.code == 65, "\(assignment): \(set)")
            #expect(set.errors.contains("would be stored as"), "\(assignment): \(set)")
        }
        let imported = try runBinary(["--db", backend.location, "import", "m"], stdin: #"{"id": 2, "price": 3.456}"# + "\n")
        #expect(imported.code == 65 && imported.errors.contains("would be stored as 3.46"), "\(imported)")
        // Named by its line, as any refused row is.
        #expect(imported.errors.contains("line 1: price: 3.456 would be stored as 3.46"), "\(imported)")
        #expect(try backend.row("SELECT price, r, at FROM m") == ["1.00", "1", "2024-01-02 10:00:00"])
        #expect(try backend.count("SELECT count(*) FROM m") == 1)
        // What the column holds is taken.
        let held = try runBinary(["--db", backend.location, "set", "m", "1", "price=3.45", "r=0.5", "at=2024-01-02T11:00:00Z"])
        #expect(held.code == 0, "\(held)")
        #expect(try backend.row("SELECT price, r, at FROM m") == ["3.45", "0.5", "2024-01-02 11:00:00"])
    }
}

/// A `timetz` typed with an offset is stored as that moment: it was taken in
/// the session's TimeZone and stored as another.
@Suite struct PostgresTimeWithZoneTests {
    @Test func aTimeWithZoneIsStoredAsTheMomentTyped() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE z (id integer PRIMARY KEY, t timetz);
            INSERT INTO z VALUES (1, '10:00+03');
            """))
        let database = try #require(backend.location.split(separator: "?")[0].split(separator: "/").last)
        try backend.execute("ALTER DATABASE \(database) SET TimeZone = 'America/New_York'")
        let set = try runBinary(["--db", backend.location, "set", "z", "1", "t=11:00:00+03"])
        #expect(set.code == 0, "\(set)")
        #expect(try backend.row("SELECT (t AT TIME ZONE 'UTC')::text FROM z") == ["08:00:00+00"])
    }

    /// A `timetz` is shown and written as the server writes it, offset and
    /// all: read as a clock time its offset was dropped (`09:00:00`), the
    /// stored value typed back was written as another moment (`03:30:00+00`),
    /// and a revert put back `09:00:00+00`.
    @Test func aTimeWithZoneKeepsItsOffset() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE shift (id integer PRIMARY KEY, starts timetz);
            INSERT INTO shift VALUES (1, '09:00:00+05:30');
            """))
        let db = ["--db", backend.location]
        #expect(try runBinary(db + ["init"]).code == 0)
        #expect(try runBinary(db + ["show", "shift", "1"]).output.contains("starts: 09:00:00+05:30"))
        let same = try runBinary(db + ["set", "shift", "1", "starts=09:00:00+05:30"])
        #expect(same.code == 0 && same.errors.contains("No changes."), "\(same)")
        #expect(try runBinary(db + ["set", "shift", "1", "starts=10:00:00+01"]).code == 0)
        #expect(try backend.row("SELECT starts::text FROM shift") == ["10:00:00+01"])
        let bad = try runBinary(db + ["set", "shift", "1", "starts=soon"])
        #expect(bad.code == 65 && bad.errors.contains("starts"), "\(bad)")
        let reverted = try runBinary(db + ["revert", "shift", "1", "--change", "1"])
        #expect(reverted.code == 0, "\(reverted)")
        #expect(try backend.row("SELECT starts::text FROM shift") == ["09:00:00+05:30"])
    }
}
