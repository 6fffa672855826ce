import Foundation
import FormStorage
import Testing

@Suite struct DatabaseValueTests {
    let conn: Connection

    init() throws {
        conn = try Connection(path: ":memory:")
        try conn.execute("CREATE TABLE v(x)")
    }

    /// Stores a value in an untyped column and reads it back.
    private func roundTrip<T: DatabaseValueConvertible>(_ value: T) throws -> T? {
        try conn.execute("DELETE FROM v")
        try conn.execute("INSERT INTO v VALUES (?)", [value])
        return try conn.fetchValue(T.self, "SELECT x FROM v")
    }

    private func storageClass(_ value: some DatabaseValueConvertible) throws -> String? {
        try conn.fetchValue(String.self, "SELECT typeof(?)", [value])
    }

    @Test func integers() throws {
        #expect(try roundTrip(Int64.min) == Int64.min)
        #expect(try roundTrip(Int64.max) == Int64.max)
        #expect(try roundTrip(0 as Int64) == 0)
        #expect(try roundTrip(Int.min) == Int.min)
        #expect(try roundTrip(-42) == -42)
        #expect(try storageClass(Int64.max) == "integer")
    }

    @Test func doubles() throws {
        #expect(try roundTrip(1.5) == 1.5)
        #expect(try roundTrip(-0.1) == -0.1)
        #expect(try roundTrip(Double.greatestFiniteMagnitude) == .greatestFiniteMagnitude)
        #expect(try roundTrip(Double.infinity) == .infinity)
        #expect(try storageClass(2.0) == "real")
    }

    @Test func textEmptyStringIsNotNull() throws {
        #expect(try roundTrip("") == "")
        #expect(try storageClass("") == "text")
        #expect(try roundTrip(String?.none) == .some(nil))
        #expect(try storageClass(String?.none) == "null")
        #expect(try conn.fetchOne("SELECT ?", [""])?[0] == .text(""))
        #expect(try conn.fetchOne("SELECT ?", [nil])?[0] == .null)
    }

    @Test func nonASCIIText() throws {
        let text = "Zoë — 東京 🚀 \u{0}after NUL"
        #expect(try roundTrip(text) == text)
        #expect(try conn.fetchValue(Int.self, "SELECT length(?)", ["東京🚀"]) == 3)
    }

    @Test func bools() throws {
        #expect(try roundTrip(true) == true)
        #expect(try roundTrip(false) == false)
        #expect(try conn.fetchOne("SELECT ?", [true])?[0] == .integer(1))
    }

    @Test func blobs() throws {
        #expect(try roundTrip(Data()) == Data())
        #expect(try storageClass(Data()) == "blob")
        let big = Data((0..<10 * 1024 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        #expect(try roundTrip(big) == big)
        #expect(try conn.fetchValue(Int.self, "SELECT length(x) FROM v") == 10 * 1024 * 1024)
    }

    @Test func datesAsISO8601TextInUTC() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        #expect(try roundTrip(date) == date)
        #expect(try conn.fetchValue(String.self, "SELECT ?", [date]) == "2023-11-14T22:13:20.123Z")
        let old = Date(timeIntervalSince1970: -86_400 * 365.25 * 100 + 0.5)
        #expect(try roundTrip(old) == old)
    }

    @Test func datesReadFromOtherFormats() throws {
        let noon = Date(timeIntervalSince1970: 1_700_049_600)
        #expect(Date.fromDatabaseValue(.text("2023-11-15T12:00:00Z")) == noon)
        #expect(Date.fromDatabaseValue(.text("2023-11-15 12:00:00")) == noon)
        #expect(Date.fromDatabaseValue(.text("2023-11-15T14:00:00+02:00")) == noon)
        #expect(Date.fromDatabaseValue(.text("2023-11-15")) == Date(timeIntervalSince1970: 1_700_006_400))
        #expect(Date.fromDatabaseValue(.integer(1_700_049_600)) == noon)
        #expect(Date.fromDatabaseValue(.text("next tuesday")) == nil)
        #expect(Date.fromDatabaseValue(.text("2023-02-30")) == nil)
    }

    @Test func uuids() throws {
        let id = UUID()
        #expect(try roundTrip(id) == id)
        #expect(try conn.fetchValue(String.self, "SELECT ?", [id]) == id.uuidString)
    }

    @Test func optionals() throws {
        #expect(try roundTrip(Int?.some(3)) == .some(3))
        #expect(try roundTrip(Int?.none) == .some(nil))
        #expect(Int?.fromDatabaseValue(.text("x")) == nil)
    }

    @Test func databaseValuesKeepTheirStorageClass() throws {
        let values: [DatabaseValue] = [.null, .integer(-1), .real(0.25), .text("t"), .blob(Data([0, 255]))]
        for value in values {
            #expect(try roundTrip(value) == value)
        }
    }

    @Test func conversionsRefuseWhatDoesNotFit() throws {
        #expect(Int.fromDatabaseValue(.real(1.5)) == nil)
        #expect(Int.fromDatabaseValue(.real(2.0)) == 2)
        #expect(Int.fromDatabaseValue(.text("2")) == nil)
        #expect(String.fromDatabaseValue(.integer(2)) == nil)
        #expect(Bool.fromDatabaseValue(.null) == nil)
    }
}
