import FormStoragePostgres
import Foundation
import Testing

/// A write's `BEGIN` travels with its first statement (one round trip): the
/// transaction still holds everything the write does, a failing first
/// statement is reported with its own SQLSTATE, and the connection is usable after.
@Suite struct PostgresPipelineTests {
    @Test func aWriteBegunWithItsFirstStatementIsOneTransaction() throws {
        let pool = try PostgresPool(url: try PostgresCluster.freshDatabase(), maxConnections: 1)
        try pool.write { try $0.executeScript("CREATE TABLE t (id integer PRIMARY KEY)") }
        let count = { try pool.read { try $0.execute("SELECT count(*) FROM t") }.text(row: 0, column: 0) }
        // The first statement fails: its own error, and the one connection serves the next write.
        let refused = #expect(throws: PostgresError.self) {
            try pool.write { try $0.execute("INSERT INTO t VALUES ($1)", ["x"]) }
        }
        #expect(refused?.sqlState == "22P02")
        try pool.write { conn in
            try conn.execute("INSERT INTO t VALUES ($1)", ["1"])
            try conn.execute("INSERT INTO t VALUES ($1)", ["2"])
        }
        #expect(try count() == "2")
        // A later statement fails: the first one's row goes too.
        let duplicate = #expect(throws: PostgresError.self) {
            try pool.write { conn in
                try conn.execute("INSERT INTO t VALUES ($1)", ["3"])
                try conn.execute("INSERT INTO t VALUES ($1)", ["1"])
            }
        }
        #expect(duplicate?.sqlState == "23505")
        #expect(try count() == "2")
        // A write that runs nothing begins nothing; the next one is as usual.
        try pool.write { _ in }
        try pool.write { try $0.execute("INSERT INTO t VALUES ($1)", ["3"]) }
        #expect(try count() == "3")
    }
}
