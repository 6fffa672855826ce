import FormBasics
import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// docs/fidelity.md: a changed value is stored in the column's own form, and a
/// value nobody changed is never rewritten — on a database built the way real
/// applications build theirs, not the way FormStore would.
@Suite struct ColumnFormTests {
    let directory: TemporaryDirectory
    let store: FormStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try FormStore(path: directory.path("app.sqlite"))
        try store.database.write { conn in
            try conn.executeScript(#"""
                CREATE TABLE events (
                    id INTEGER PRIMARY KEY,
                    title TEXT,
                    created_at DATETIME,        -- SQLite's own layout
                    day DATE,                   -- date only
                    iso TIMESTAMP,              -- ISO 8601 with T, fraction and an offset
                    epoch DATETIME,             -- Unix seconds as INTEGER
                    epoch_ms INTEGER,           -- milliseconds
                    julian REAL,                -- julianday()
                    done BOOLEAN,               -- 'true' / 'false'
                    note,                       -- untyped
                    score NUMERIC,
                    big INTEGER,
                    photo BLOB,
                    length_title INTEGER GENERATED ALWAYS AS (length(title)) VIRTUAL
                );
                INSERT INTO events (id, title, created_at, day, iso, epoch, epoch_ms, julian, done, note, score, big)
                VALUES (1, '  padded  ', '2021-01-01 00:00:00', '2016-07-04', '2021-01-01T10:00:00.5+02:00',
                        1600000000, 1600000000123, 2459215.5, 'true', 1, 10, 9223372036854775807);
                INSERT INTO events (id, title, note) VALUES (2, NULL, 'x');
                CREATE VIEW recent AS SELECT id, title FROM events;
                """#)
        }
    }

    func form(_ table: String) throws -> Form {
        FormInference.form(for: try store.database.read { try $0.tableInfo(table) })
    }

    func stored(_ column: String, id: Int = 1) throws -> DatabaseValue {
        try store.database.read { conn in
            try #require(try conn.fetchOne("SELECT \(quoteIdentifier(column)) FROM events WHERE id = ?", [id]))[0]
        }
    }

    func dump() throws -> [[DatabaseValue]] {
        try store.database.read { conn in
            try conn.fetchAll("SELECT * FROM events ORDER BY id").map { row in (0..<row.count).map { row[$0] } }
        }
    }

    /// Opens row `id`, sets one field as typed, saves, and returns what was stored.
    @discardableResult
    func set(_ field: String, _ input: String, id: Int = 1) throws -> DatabaseValue {
        let session = try FormSession.open(try form("events"), key: RecordKey("id", .int(Int64(id))), backend: store)
        try session.set(field, input: input)
        let outcome = try session.save()
        guard case .saved = outcome else { throw Unexpected(outcome: "\(outcome)") }
        return try stored(field, id: id)
    }

    struct Unexpected: Error { var outcome: String }

    @Test func aChangedDateKeepsTheRowsLayout() throws {
        #expect(try set("created_at", "2021-01-02 10:00") == .text("2021-01-02 10:00:00"))
        #expect(try set("day", "2016-07-05") == .text("2016-07-05"))
        #expect(try set("iso", "2021-01-01 12:00") == .text("2021-01-01T14:00:00.0+02:00"))
        #expect(try set("epoch", "2020-09-13 12:27") == .integer(1_600_000_020))
        // A fraction of a second is not cut off: whole seconds' column takes a REAL of the same unit.
        let session = try FormSession.open(try form("events"), key: RecordKey("id", 1), backend: store)
        try session.set("epoch", value: .date(Date(timeIntervalSince1970: 1_600_000_020.25)))
        guard case .saved = try session.save() else { Issue.record("not saved"); return }
        #expect(try stored("epoch", id: 1) == .real(1_600_000_020.25))
        #expect(try set("epoch", "2020-09-13 12:28") == .integer(1_600_000_080))
    }

    @Test func aDateInANewRowFollowsTheColumn() throws {
        let session = FormSession.new(try form("events"), backend: store)
        try session.set("id", input: "3")
        try session.set("created_at", input: "2022-03-04 05:06")
        try session.set("epoch", input: "1970-01-01 00:01")
        try session.set("day", input: "2022-03-04")
        guard case .saved = try session.save() else { Issue.record("not saved"); return }
        #expect(try stored("created_at", id: 3) == .text("2022-03-04 05:06:00"))
        #expect(try stored("epoch", id: 3) == .integer(60))
        #expect(try stored("day", id: 3) == .text("2022-03-04"))
    }

    @Test func oneFieldChangedLeavesEveryOtherValueOfTheRowIdentical() throws {
        let before = try dump()
        try set("score", "11")
        let after = try dump()
        #expect(after[1] == before[1])
        for (index, value) in after[0].enumerated() where index != 10 {
            #expect(value == before[0][index], "column \(index)")
        }
        #expect(after[0][10] == .integer(11))
    }

    @Test func textIsKeptByteForByte() throws {
        #expect(try set("title", " two  spaces\n") == .text(" two  spaces\n"))
        #expect(try stored("length_title") == .integer(13))
    }

    /// Over a number, a value typed into an untyped column is stored in the
    /// class it reads as; over text it stays text, as the row holds it there.
    @Test func anUntypedColumnStoresWhatWasTyped() throws {
        #expect(try set("note", "2") == .integer(2))
        #expect(try set("note", "3.14") == .real(3.14))
        #expect(try set("note", "007") == .text("007"))
        #expect(try set("note", "Kraków") == .text("Kraków"))
        #expect(try set("note", "42") == .text("42"))
        #expect(try set("note", "43", id: 2) == .text("43"))
        // Bytes typed as they are shown are bytes again; what merely looks like hex is not.
        #expect(try set("note", "x'00ff'") == .blob(Data([0, 255])))
        #expect(try set("note", "CAFE", id: 2) == .text("CAFE"))
        #expect(try set("note", "x'0g'", id: 2) == .text("x'0g'"))
    }

    @Test func boolsKeepTheColumnsWords() throws {
        #expect(try set("done", "no") == .text("false"))
        #expect(try set("done", "yes") == .text("true"))
        // Row 2 holds NULL: the words come from the column's other rows.
        #expect(try set("done", "no", id: 2) == .text("false"))
    }

    @Test func aGeneratedColumnIsShownReadOnly() throws {
        let form = try form("events")
        let field = try #require(form.field("length_title"))
        #expect(field.isReadOnly)
        let record = try #require(try store.load(form, key: RecordKey("id", 1)))
        #expect(record.values["length_title"] == .int(10))
    }

    @Test func aViewIsListedAndReadable() throws {
        let names = try store.database.read { try $0.tableNames() }
        #expect(names.contains("recent"))
        let view = try form("recent")
        let allReadOnly = view.fields.allSatisfy { $0.isReadOnly }
        #expect(allReadOnly)
        var titles: [FieldValue] = []
        try store.forEachRecord(view) { titles.append($0.values["title"] ?? .null) }
        #expect(titles.sorted { "\($0)" < "\($1)" }.count == 2)
        #expect(throws: FormStoreError.self) { _ = try self.store.load(view, key: RecordKey("id", 1)) }
    }

    @Test func aTextKeyIsRequiredOnANewRecord() throws {
        try store.database.write { try $0.execute("CREATE TABLE codes (code TEXT PRIMARY KEY, name TEXT)") }
        let form = try form("codes")
        #expect(form.field("code")?.isNotNull == true)
        let session = FormSession.new(form, backend: store)
        try session.set("name", input: "x")
        guard case .invalid(let errors) = try session.save() else { Issue.record("saved without a key"); return }
        #expect(errors.map(\.field) == ["code"])
    }

    @Test func formsAreDetectedAndRenderedExactly() throws {
        let samples: [DatabaseValue] = [
            .text("2016-07-04"), .text("2021-01-01 00:00:00"), .text("2021-01-01T00:00:00Z"),
            .text("2021-01-01T00:00:00.123456Z"), .text("2021-01-01t08:30+0530"), .text("13:45"),
            .text("13:45:59.25"), .integer(1_600_000_000), .integer(1_600_000_000_123), .real(2459215.5),
            .real(1_600_000_000.25), .integer(20_240_102), .integer(19_000_101), .integer(29_991_231),
            .text("2021-01-01 08:30:00 +0530"), .text("2021-01-01 08:30:00 -05:00"),
            .text("2024-3-5"), .text("7:05:09"), .text("2024-12-5 7:05"),
            .text("2024/03/05"), .text("05.03.2024"), .text("5.3.2024 7:05:09"), .text("2024-03-05 7:05:09"), .text("2024-3-5 07:05"),
        ]
        for sample in samples {
            let format = try #require(DateStorageFormat.detect(sample), "\(sample)")
            let date = try #require(DateStorageFormat.parse(sample))
            #expect(format.encode(date) == sample)
        }
        // A day as yyyymmdd: its month and day must be one, else it is Unix seconds.
        #expect(DateStorageFormat.parse(.integer(20_240_102)) == ISO8601.parse("2024-01-02T00:00:00Z"))
        #expect(DateStorageFormat.detect(.integer(20_241_302)) == .unixSeconds(integer: true))
        #expect(DateStorageFormat.compactDay.encode(try #require(ISO8601.parse("2024-01-02T10:30:00Z")))
                == .text("2024-01-02 10:30:00"))
        #expect(DateStorageFormat.detect(.text("not a date")) == nil)
        #expect(DateStorageFormat.detect(.text("2021-02-30")) == nil)
        // A day first, after dots, is that day; slashes with the year last could be either, and are text.
        #expect(DateStorageFormat.parse(.text("05.03.2024")) == ISO8601.parse("2024-03-05T00:00:00Z"))
        #expect(DateStorageFormat.detect(.text("03/05/2024")) == nil)
        #expect(DateStorageFormat.detect(.text("31.02.2024")) == nil)
        #expect(DateStorageFormat.detect(.text("12.5")) == nil)
        // An offset after a space (Ruby's `Time#to_s`) is read and kept; a space alone is no date.
        #expect(DateStorageFormat.parse(.text("2021-01-01 08:30:00 +0530")) == ISO8601.parse("2021-01-01T03:00:00Z"))
        #expect(DateStorageFormat.detect(.text("2021-01-01 08:30:00 ")) == nil)
        #expect(DateStorageFormat.detect(.text("2021-01-01 08:30:00 Z")) == nil)
    }

    /// A date is never written as another: a part the column's example
    /// leaves out but the date has is written too.
    @Test func aLayoutTakesThePartsItLeavesOutWhenTheDateHasThem() throws {
        func written(_ example: String, _ iso: String) throws -> DatabaseValue {
            let format = try #require(DateStorageFormat.detect(.text(example)))
            return format.encode(try #require(ISO8601.parse(iso)))
        }
        #expect(try written("2024-01-05", "2025-05-05T10:30:00Z") == .text("2025-05-05 10:30:00"))
        #expect(try written("2024-01-05", "2025-05-06T00:00:00Z") == .text("2025-05-06"))
        #expect(try written("13:45:59", "2025-05-05T10:30:00Z") == .text("2025-05-05 10:30:00"))
        #expect(try written("13:45:59", "1970-01-01T10:30:00Z") == .text("10:30:00"))
        #expect(try written("2024-01-05 10:30", "2025-05-05T10:30:15.5Z") == .text("2025-05-05 10:30:15.500"))
        #expect(try written("2024-01-05T10:30:00Z", "2025-05-05T10:30:15.123456Z") == .text("2025-05-05T10:30:15.123456Z"))
        // Written without leading zeros as the column is (`2024-3-5`); two digits stay two.
        #expect(try written("2024-3-5", "2025-11-06T00:00:00Z") == .text("2025-11-6"))
        #expect(try written("7:05:09", "1970-01-01T07:05:10Z") == .text("7:05:10"))
        #expect(try written("2024-03-05", "2025-11-06T00:00:00Z") == .text("2025-11-06"))
    }

    /// A Julian day is read to the millisecond, as SQLite's date functions
    /// read it: `julianday('2021-01-01 10:00:00')` is 10:00:00, not a hair before.
    @Test func aJulianDayIsReadToTheMillisecond() throws {
        let stored = try #require(try store.database.read { try $0.fetchValue(Double.self, "SELECT julianday('2021-01-01 10:00:00')") })
        let date = try #require(DateStorageFormat.parse(.real(stored)))
        #expect(date == ISO8601.parse("2021-01-01T10:00:00Z"))
    }

    @Test func aBlobIsTypedInHex() throws {
        #expect(try set("photo", "x'CAFE00'") == .blob(Data([0xCA, 0xFE, 0x00])))
        #expect(try set("photo", "\\xbeef") == .blob(Data([0xBE, 0xEF])))
        let session = try FormSession.open(try form("events"), key: RecordKey("id", 1), backend: store)
        #expect(session.text("photo") == "x'BEEF'")
        try session.set("photo", input: "x'zz'")
        #expect(session.errors("photo").map(\.code) == ["hex"])
        // Text that does not try to be hex is text, as SQLite keeps it in a BLOB column.
        try session.set("photo", input: "zz")
        #expect(session.errors("photo").isEmpty)
        #expect(session.value("photo") == .text("zz"))
    }

    /// Bytes that happen to be UTF-8 are still bytes in a BLOB column: shown
    /// in hex, edited in hex, and left as a BLOB when another field is saved.
    @Test func aBlobOfUTF8BytesStaysBytes() throws {
        try store.database.write { try $0.execute("UPDATE events SET photo = x'414243' WHERE id = 2") }
        let session = try FormSession.open(try form("events"), key: RecordKey("id", 2), backend: store)
        #expect(session.value("photo") == .data(Data("ABC".utf8)))
        #expect(session.text("photo") == "x'414243'")
        try session.set("title", input: "renamed")
        guard case .saved = try session.save() else { Issue.record("not saved"); return }
        #expect(try stored("photo", id: 2) == .blob(Data("ABC".utf8)))
        #expect(try set("photo", "x'414244'", id: 2) == .blob(Data("ABD".utf8)))
    }

    /// A zone of hours alone (`+02`, PostgreSQL's `+00`) is read, and a date
    /// written like it keeps that spelling.
    @Test func anHourOnlyZoneIsReadAndKept() {
        let coding = StorageCoding(kind: .datetime)
        let stored = DatabaseValue.text("2021-01-01 10:00:00+02")
        guard case .date(let date) = coding.decode(stored) else { Issue.record("not a date"); return }
        #expect(date == Date(timeIntervalSince1970: 1_609_488_000))   // 2021-01-01T08:00:00Z
        #expect(coding.encode(.date(date.addingTimeInterval(3600)), like: stored) == .text("2021-01-01 11:00:00+02"))
        #expect(coding.decode(.text("2021-01-01 10:00:00-05")) == .date(Date(timeIntervalSince1970: 1_609_513_200)))
    }

    @Test func aValueAlreadyHeldIsStoredVerbatim() {
        let coding = StorageCoding(kind: .datetime)
        let stored = DatabaseValue.text("2021-01-01T10:00:00.000+02:00")
        #expect(coding.encode(coding.decode(stored), like: stored) == stored)
    }
}
