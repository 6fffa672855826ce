import FormCore
import Foundation
@testable import FormStorage
import Testing

@Suite struct StorageCodingTests {
    let conn: Connection

    init() throws {
        conn = try Connection(path: ":memory:")
        try conn.execute("""
            CREATE TABLE r(t TEXT, i INTEGER, d REAL, b BOOLEAN, day DATE, at DATETIME, clock TIME,
                           tags TEXT, raw BLOB, n NUMERIC, any)
            """)
        try conn.execute("INSERT INTO r DEFAULT VALUES")
    }

    /// Encodes for the kind, stores in `column`, reads back and decodes.
    private func roundTrip(_ value: FieldValue, _ kind: FieldKind?, column: String) throws -> FieldValue {
        let coding = StorageCoding(kind: kind)
        try conn.execute("UPDATE r SET \(quoteIdentifier(column)) = ?", [coding.encode(value)])
        let stored = try #require(try conn.fetchOne("SELECT \(quoteIdentifier(column)) FROM r"))[0]
        return coding.decode(stored)
    }

    private func stored(_ column: String) throws -> DatabaseValue? {
        try conn.fetchOne("SELECT \(quoteIdentifier(column)) FROM r")?[0]
    }

    /// A column decoded where SQLite holds it (how a load reads a row) is
    /// what its stored value decodes to, whatever its storage class and kind.
    @Test func aCellDecodesAsItsStoredValueForEveryKind() throws {
        let statement = try conn.cachedStatement("""
            SELECT 7, -2.5, 'Ada', '  42 ', '2024-01-31', '1', x'414200', NULL, 3.0, '["a"]', x'00ff'
            """)
        #expect(try statement.step())
        defer { statement.reset() }
        for column in 0..<11 {
            for kind in [nil] + FieldKind.allCases.map(Optional.some) {
                #expect(StorageCoding.decode(statement.cell(at: column), kind: kind)
                        == StorageCoding.decode(statement.value(at: column), kind: kind),
                        "column \(column), kind \(kind.map(\.rawValue) ?? "none")")
            }
        }
    }

    @Test func boolsAreZeroOrOne() throws {
        #expect(try roundTrip(true, .bool, column: "b") == true)
        #expect(try stored("b") == .integer(1))
        #expect(try roundTrip(false, .bool, column: "b") == false)
        #expect(try stored("b") == .integer(0))
    }

    @Test func boolsStoredAsWordsDecode() {
        let coding = StorageCoding(kind: .bool)
        #expect(coding.decode(.text("true")) == true)
        #expect(coding.decode(.text("FALSE")) == false)
        #expect(coding.decode(.text("yes")) == true)
        #expect(coding.decode(.real(0)) == false)
        #expect(coding.decode(.text("maybe")) == "maybe")
    }

    @Test func datesPerKind() throws {
        let moment = Date(timeIntervalSince1970: 1_714_568_645.25)  // 2024-05-01T13:04:05.250Z
        let midnight = Date(timeIntervalSince1970: 1_714_521_600)     // 2024-05-01
        #expect(try roundTrip(.date(midnight), .date, column: "day") == .date(midnight))
        #expect(try stored("day") == .text("2024-05-01"))
        #expect(try roundTrip(.date(moment), .datetime, column: "at") == .date(moment))
        #expect(try stored("at") == .text("2024-05-01T13:04:05.250Z"))
        let clock = Date(timeIntervalSince1970: 13 * 3600 + 4 * 60 + 5)
        #expect(try roundTrip(.date(clock), .time, column: "clock") == .date(clock))
        #expect(try stored("clock") == .text("13:04:05"))
    }

    @Test func datesThatAreNotISOStayText() {
        #expect(StorageCoding(kind: .date).decode(.text("31/12/1999")) == "31/12/1999")
        #expect(StorageCoding(kind: .datetime).decode(.text("yesterday")) == "yesterday")
        #expect(StorageCoding(kind: .time).decode(.text("noon")) == "noon")
        #expect(StorageCoding(kind: .datetime).decode(.text("2024-05-01 13:04:05"))
                == .date(Date(timeIntervalSince1970: 1_714_568_645)))
    }

    @Test func multichoiceListsAreJSONArrays() throws {
        let list: FieldValue = .list(["pizza", "sushi", #"say "hi"\n"#, "東京"])
        #expect(try roundTrip(list, .multichoice, column: "tags") == list)
        #expect(try stored("tags") == .text(#"["pizza","sushi","say \"hi\"\\n","東京"]"#))
        let mixed: FieldValue = .list([1, 2.5, true, nil, .list(["x"])])
        #expect(try roundTrip(mixed, .multichoice, column: "tags") == mixed)
        #expect(try roundTrip(.list([]), .multichoice, column: "tags") == .list([]))
        #expect(StorageCoding(kind: .multichoice).decode(.text("a,b")) == "a,b")
    }

    @Test func numbers() throws {
        #expect(try roundTrip(.int(Int64.min), .integer, column: "i") == .int(Int64.min))
        #expect(try roundTrip(.int(Int64.max), .integer, column: "i") == .int(Int64.max))
        #expect(try roundTrip(.double(2.5), .decimal, column: "d") == .double(2.5))
        #expect(try roundTrip(.int(3), .decimal, column: "d") == .double(3))
        #expect(try stored("d") == .real(3))
        // NUMERIC affinity turns 3.0 into INTEGER 3; the decimal kind still reads a Double.
        #expect(try roundTrip(.double(3), .decimal, column: "n") == .double(3))
        #expect(try stored("n") == .integer(3))
        #expect(StorageCoding(kind: .integer).decode(.text(" 12 ")) == .int(12))
        #expect(StorageCoding(kind: .integer).decode(.text("twelve")) == "twelve")
        #expect(StorageCoding(kind: .decimal).decode(.text("1.25")) == .double(1.25))
    }

    @Test func textKinds() throws {
        for kind in [FieldKind.text, .name, .multiline, .password, .email, .phone, .url, .address, .state, .zip] {
            #expect(try roundTrip("Zoë 🚀", kind, column: "t") == "Zoë 🚀")
            #expect(try roundTrip("", kind, column: "t") == "")
            #expect(try roundTrip(.null, kind, column: "t") == .null)
        }
        // An INTEGER in a text field reads as text.
        #expect(StorageCoding(kind: .text).decode(.integer(12)) == "12")
        #expect(StorageCoding(kind: .zip).decode(.blob(Data("02139".utf8))) == "02139")
    }

    @Test func nullAndEmptyStayApart() throws {
        #expect(try roundTrip(.null, .text, column: "t") == .null)
        #expect(try stored("t") == .null)
        #expect(try roundTrip("", .text, column: "t") == "")
        #expect(try stored("t") == .text(""))
        for kind in FieldKind.allCases {
            #expect(StorageCoding(kind: kind).decode(.null) == .null)
            #expect(StorageCoding(kind: kind).encode(.null) == .null)
        }
    }

    @Test func dataIsABlob() throws {
        let data = Data([0, 1, 2, 255])
        #expect(try roundTrip(.data(data), nil, column: "raw") == .data(data))
        #expect(try stored("raw") == .blob(data))
    }

    @Test func choicesKeepTheirType() throws {
        #expect(try roundTrip(2, .choice, column: "any") == 2)
        #expect(try roundTrip("red", .choice, column: "any") == "red")
    }

    @Test func kindlessFallback() {
        #expect(FieldValue(DatabaseValue.integer(4)) == .int(4))
        #expect(FieldValue(DatabaseValue.real(0.5)) == .double(0.5))
        #expect(FieldValue(DatabaseValue.text("x")) == .text("x"))
        #expect(FieldValue(DatabaseValue.blob(Data([1]))) == .data(Data([1])))
        #expect(FieldValue(DatabaseValue.null) == .null)
        #expect(DatabaseValue(FieldValue.bool(true)) == .integer(1))
        #expect(DatabaseValue(FieldValue.date(Date(timeIntervalSince1970: 0))) == .text("1970-01-01T00:00:00.000Z"))
        #expect(DatabaseValue(FieldValue.list(["a"])) == .text(#"["a"]"#))
        #expect(DatabaseValue(FieldValue.data(Data([1]))) == .blob(Data([1])))
        #expect(DatabaseValue(FieldValue.null) == .null)
    }

    /// The shortcut `encode(_:like:)` and an insert take (`isStoredForm`)
    /// says yes only where decoding says the same: for every kind, stored
    /// value and model value, a yes means the stored value decodes to the
    /// model value, and encoding gives what it gave with no shortcut.
    @Test func theStoredFormShortcutAgreesWithDecoding() {
        let stored: [DatabaseValue] = [.integer(7), .integer(1), .integer(0), .real(2.5), .real(7), .real(-0.0),
                                       .text("7"), .text("Ada"), .text(" 7 "), .text("true"), .text("2024-01-31"),
                                       .text(#"["a"]"#), .text("e\u{301}"), .blob(Data([1])), .null]
        let models: [FieldValue] = [.int(7), .int(1), .double(2.5), .double(7), .double(0), .text("7"), .text("Ada"),
                                    .text(" 7 "), .text("true"), .bool(true), .text("2024-01-31"), .text(#"["a"]"#),
                                    .text("\u{e9}"), .list(["a"]), .data(Data([1])), .null]
        for kind in [nil] + FieldKind.allCases.map(Optional.some) {
            for example in stored {
                for value in models where StorageCoding.isStoredForm(example, of: value, kind: kind) {
                    #expect(StorageCoding.decode(example, kind: kind) == value, "\(example) as \(String(describing: kind))")
                    #expect(StorageCoding(kind: kind).encode(value, like: example) == example)
                }
            }
        }
        // The pairs an import meets most take it.
        #expect(StorageCoding.isStoredForm(.integer(7), of: .int(7), kind: .integer))
        #expect(StorageCoding.isStoredForm(.real(2.5), of: .double(2.5), kind: .decimal))
        #expect(StorageCoding.isStoredForm(.text("Ada"), of: .text("Ada"), kind: .text))
        // A decimal given an integer is still stored as a REAL.
        #expect(!StorageCoding.isStoredForm(.integer(7), of: .int(7), kind: .decimal))
        #expect(StorageCoding(kind: .decimal).encode(.int(7), like: .integer(7)) == .real(7))
    }
}
