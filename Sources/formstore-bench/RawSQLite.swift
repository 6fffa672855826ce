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

/// The history's two rows for one changed field (`formstore_changes` and
/// `formstore_change_fields`), written through the C API as FormStore's
/// history writes them: what the floor cases add to a bare update.
final class RawHistoryRows {
    private let connection: RawConnection
    private let change: RawStatement
    private let field: RawStatement

    init(_ connection: RawConnection) throws {
        self.connection = connection
        change = try connection.prepare("""
            INSERT INTO formstore_changes (form, record_key, changed_at, actor, via) VALUES (?, ?, ?, NULL, 'library')
            """)
        field = try connection.prepare("""
            INSERT INTO formstore_change_fields (change_id, field, old_value, new_value, secure) VALUES (?, ?, ?, ?, 0)
            """)
    }

    /// Inserts the change of `form`'s record `key` (its key text) and its one field's old and new values.
    func write(form: String, key: String, field name: String, old: String, new: String) throws {
        sqlite3_bind_text(change.pointer, 1, form, -1, formstore_sqlite3_transient())
        sqlite3_bind_text(change.pointer, 2, key, -1, formstore_sqlite3_transient())
        sqlite3_bind_text(change.pointer, 3, "2026-01-01T00:00:00.000Z", -1, formstore_sqlite3_transient())
        try change.run()
        sqlite3_bind_int64(field.pointer, 1, sqlite3_last_insert_rowid(connection.db))
        sqlite3_bind_text(field.pointer, 2, name, -1, formstore_sqlite3_transient())
        sqlite3_bind_text(field.pointer, 3, old, -1, formstore_sqlite3_transient())
        sqlite3_bind_text(field.pointer, 4, new, -1, formstore_sqlite3_transient())
        try field.run()
    }
}
