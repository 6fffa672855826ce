import CSQLite
import Foundation

/// The baseline: SQLite through its C API and nothing else.
final class RawConnection {
    let db: OpaquePointer

    init(path: String, synchronous: String = "FULL") throws {
        var pointer: OpaquePointer?
        guard sqlite3_open_v2(path, &pointer, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK, let pointer else {
            sqlite3_close(pointer)
            throw BenchError("cannot open \(path)")
        }
        db = pointer
        sqlite3_busy_timeout(db, 5000)
        try execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = \(synchronous)")
    }

    deinit { sqlite3_close_v2(db) }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw BenchError("\(sql): \(message.map { String(cString: $0) } ?? "error")")
        }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        return RawStatement(statement)
    }

    /// The first column of the first row, as text.
    func text(_ sql: String) throws -> String {
        let statement = try prepare(sql)
        guard sqlite3_step(statement.pointer) == SQLITE_ROW, let text = sqlite3_column_text(statement.pointer, 0) else {
            return ""
        }
        return String(cString: text)
    }
}

final class RawStatement {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { sqlite3_finalize(pointer) }

    /// Steps to the end; throws on an error.
    func run() throws {
        var code: Int32
        repeat { code = sqlite3_step(pointer) } while code == SQLITE_ROW
        sqlite3_reset(pointer)
        guard code == SQLITE_DONE else {
            throw BenchError(String(cString: sqlite3_errmsg(sqlite3_db_handle(pointer))))
        }
    }

    func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(pointer, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(pointer, column))),
                      as: UTF8.self)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What the SQLite library in use is, and how FormStore's connections are set up.
struct SQLiteSetting: Codable {
    var sqliteVersion: String
    var sqlite3Command: String
    var journalMode: String
    var synchronous: String
    var busyTimeoutMilliseconds: Int
    var pageSize: Int
    var foreignKeys: Bool
}
