import FormStoragePostgres
import Foundation
import Testing

/// `PostgresConnection.stream`: rows handed over one at a time, and a reader
/// that stops early leaves its connection usable for the next statement.
@Suite struct PostgresStreamTests {
    private struct Enough: Error {}

    @Test func rowsArriveOneAtATimeInOrder() throws {
        let conn = try PostgresConnection(url: try PostgresCluster.freshDatabase())
        var seen: [String] = []
        try conn.stream("SELECT i FROM generate_series(1, $1::int) i ORDER BY i", ["5"]) { row in
            #expect(row.rowCount == 1)
            seen.append(row.text(row: 0, column: 0) ?? "")
        }
        #expect(seen == ["1", "2", "3", "4", "5"])
        var none = 0
        try conn.stream("SELECT 1 WHERE false") { _ in none += 1 }
        #expect(none == 0)
    }

    @Test func aReaderThatStopsEarlyLeavesTheConnectionUsable() throws {
        let conn = try PostgresConnection(url: try PostgresCluster.freshDatabase())
        var seen = 0
        #expect(throws: Enough.self) {
            try conn.stream("SELECT i FROM generate_series(1, 1000000) i") { _ in
                seen += 1
                if seen == 3 { throw Enough() }
            }
        }
        #expect(seen == 3)
        #expect(conn.isUsable)
        #expect(try conn.execute("SELECT 41 + 1").text(row: 0, column: 0) == "42")
    }

    @Test func aFailingStatementThrowsTheServersError() throws {
        let conn = try PostgresConnection(url: try PostgresCluster.freshDatabase())
        #expect(throws: PostgresError.self) {
            try conn.stream("SELECT 1 / (i - 3) FROM generate_series(1, 5) i") { _ in }
        }
        #expect(try conn.execute("SELECT 'still here'").text(row: 0, column: 0) == "still here")
    }
}
