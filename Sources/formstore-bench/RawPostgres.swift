import CLibPQ
import Foundation

/// The baseline's libpq: one connection, statements prepared once, values
/// bound in the text format, results read as text: the same work FormStore
/// does, without FormStore.
final class RawPostgres {
    private let handle: OpaquePointer
    private var prepared: [String: String] = [:]

    init(url: String) throws {
        guard let handle = PQconnectdb(url) else { throw BenchError("libpq could not allocate a connection") }
        self.handle = handle
        guard PQstatus(handle) == CONNECTION_OK else {
            throw BenchError("cannot connect: \(String(cString: PQerrorMessage(handle)))")
        }
    }

    deinit { PQfinish(handle) }

    /// Runs a statement prepared on first use; calls `read` with the result
    /// while it is alive.
    func run(_ sql: String, _ parameters: [String], read: (OpaquePointer) -> Void = { _ in }) throws {
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = "raw_\(prepared.count)"
            let made = PQprepare(handle, name, sql, Int32(parameters.count), nil)
            defer { PQclear(made) }
            guard PQresultStatus(made) == PGRES_COMMAND_OK else {
                throw BenchError("prepare failed: \(String(cString: PQerrorMessage(handle)))")
            }
            prepared[sql] = name
        }
        let copies = parameters.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let values = copies.map { UnsafePointer<CChar>($0) }
        let result = PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchError("\(sql) failed: \(String(cString: PQerrorMessage(handle)))")
        }
        read(result!)
    }

    /// Runs SQL with no parameters (setup).
    func script(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchError("setup failed: \(String(cString: PQerrorMessage(handle)))")
        }
    }
}

extension Person {
    /// The baseline's read: 20 columns of libpq's text into the struct.
    init(result: OpaquePointer) {
        func text(_ column: Int32) -> String { String(cString: PQgetvalue(result, 0, column)) }
        id = Int64(text(0)) ?? 0
        firstName = text(1); lastName = text(2); email = text(3); phone = text(4)
        street = text(5); city = text(6); state = text(7); zip = text(8); country = text(9)
        age = Int64(text(10)) ?? 0; score = Double(text(11)) ?? 0
        balance = Double(text(12)) ?? 0; visits = Int64(text(13)) ?? 0
        rating = Double(text(14)) ?? 0; active = text(15) == "t"
        notes = text(16); company = text(17); title = text(18); nickname = text(19)
    }

    /// `selectSQL` for PostgreSQL: names quoted (unquoted, PostgreSQL folds them to lower case), `$1`.
    static var postgresSelectSQL: String {
        "SELECT \(columns.map { "\"\($0.name)\"" }.joined(separator: ", ")) FROM \(table) WHERE id = $1"
    }

    /// The table in PostgreSQL's types, with `count` rows.
    static func createInPostgres(_ db: RawPostgres, count: Int) throws {
        let types = ["INTEGER PRIMARY KEY": "integer PRIMARY KEY", "TEXT": "text", "INTEGER": "bigint",
                     "REAL": "double precision"]
        let definition = columns.map { "\"\($0.name)\" \($0.name == "active" ? "boolean" : types[$0.type] ?? "text")" }
        try db.script("""
            DROP TABLE IF EXISTS \(table); CREATE TABLE \(table) (\(definition.joined(separator: ", ")));
            INSERT INTO \(table) SELECT i, 'Ada' || i, 'Lovelace', 'ada' || i || '@example.com', '5551234567',
                '12 Analytical Street', 'London', 'LN', '12345', 'United Kingdom', 36, 9.5, 1024.25, i,
                4.5, true, 'Wrote the first program.', 'Babbage & Co', 'Programmer', 'Countess'
            FROM generate_series(1, \(count)) AS i;
            """)
    }
}
