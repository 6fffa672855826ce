import Foundation
@testable import FormStorage
import Testing

/// `Statement.execute` binds text and blobs in place (SQLITE_STATIC, from a
/// buffer the statement keeps): what it stores must be what a copying bind
/// stored, row after row of the same cached statement.
@Suite struct StatementBindingTests {
    let conn: Connection

    init() throws {
        conn = try Connection(path: ":memory:")
        try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a, b)")
    }

    private func stored(_ id: Int) throws -> [DatabaseValue] {
        let row = try #require(try conn.fetchOne("SELECT a, b FROM t WHERE id = ?", [id]))
        return [row[0], row[1]]
    }

    @Test func textAndBlobsAreStoredByteForByteRowAfterRow() throws {
        let long = String(repeating: "long text é ", count: 200)
        let rows: [[DatabaseValue]] = [
            [.text("Ada"), .blob(Data([0, 1, 2]))],
            [.text(""), .blob(Data())],
            [.text("a\u{0}b"), .text("short")],
            [.text(long), .blob(Data(repeating: 0xAB, count: 5_000))],
            [.text("e\u{301}"), .integer(7)],
            [.real(2.5), .null],
            [.text("after the long ones"), .text("x")],
        ]
        for (id, values) in rows.enumerated() {
            try conn.execute("INSERT INTO t(id, a, b) VALUES (?, ?, ?)", StatementArguments([.integer(Int64(id))] + values))
        }
        for (id, values) in rows.enumerated() {
            #expect(try stored(id) == values)
        }
        // Empty text and an empty blob are values, not NULL.
        #expect(try conn.fetchValue(String.self, "SELECT typeof(a) || typeof(b) FROM t WHERE id = 1") == "textblob")
        #expect(try conn.fetchValue(Int.self, "SELECT length(CAST(a AS BLOB)) FROM t WHERE id = 2") == 3)
    }

    /// A failed execute (a constraint) leaves nothing bound: the next run of
    /// the same statement stores its own values.
    @Test func aFailedExecuteDoesNotLeaveItsValuesBound() throws {
        try conn.execute("CREATE TABLE u(k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        let insert = "INSERT INTO u(k, v) VALUES (?, ?)"
        try conn.execute(insert, StatementArguments([.text("one"), .text("first")]))
        #expect(throws: DatabaseError.self) { try conn.execute(insert, StatementArguments([.text("one"), .text("again")])) }
        try conn.execute(insert, StatementArguments([.text("two"), .text("second")]))
        let rows = try conn.fetchAll("SELECT k, v FROM u ORDER BY k").map { [$0[0], $0[1]] }
        #expect(rows == [[.text("one"), .text("first")], [.text("two"), .text("second")]])
    }

    @Test func countMismatchesAndNamedArgumentsAreStillChecked() throws {
        #expect(throws: DatabaseError.self) { try conn.execute("INSERT INTO t(a, b) VALUES (?, ?)", StatementArguments([.text("one")])) }
        try conn.execute("INSERT INTO t(id, a, b) VALUES (:id, :a, ?)",
                         StatementArguments([.text("b")], named: ["id": .integer(9), "a": .text("a")]))
        #expect(try stored(9) == [.text("a"), .text("b")])
    }
}
