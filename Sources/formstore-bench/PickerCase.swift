import CSQLite
import FormCore
import FormStorage
import Foundation

/// A foreign-key picker searching 100 000 referenced rows (`FormStore.choices`),
/// against the same LIMITed query through the C API: both read one page of
/// matches, never the whole table into memory.
struct PickerCase {
    let directory: Scratch
    let size: RunSize

    var referencedRows: Int { size.pick(smoke: 1000, quick: 100_000, full: 100_000) }

    static let form = Form("bench_order") {
        Section { Field("Customer", key: "customer_id", kind: .integer) }
    }

    static let searchSQL = """
        SELECT "id", "name" FROM "bench_customer" WHERE "name" LIKE ? ESCAPE '\\' OR CAST("id" AS TEXT) = ?
        ORDER BY "name", "id" LIMIT ?
        """

    func run() throws -> ResultRow {
        let path = directory.file("picker.sqlite")
        let raw = try RawConnection(path: path)
        try raw.execute("""
            CREATE TABLE bench_customer (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE bench_order (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES bench_customer(id));
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(referencedRows))
            INSERT INTO bench_customer SELECT i, 'Customer ' || i FROM n;
            """)
        let store = try openStore(path)
        let select = try raw.prepare(Self.searchSQL)
        let searches = ["4711", "er 99", "Customer 12", "nobody"]
        let perRound = size.pick(smoke: 1, quick: 10, full: 30)
        var i = 0
        var found = 0
        let paired = try interleaved(rounds: size.pick(smoke: 1, quick: 11, full: 21), baseline: {
            seconds {
                for _ in 0..<perRound {
                    i = (i + 1) % searches.count
                    sqlite3_bind_text(select.pointer, 1, "%\(searches[i])%", -1, formstore_sqlite3_transient())
                    sqlite3_bind_text(select.pointer, 2, searches[i], -1, formstore_sqlite3_transient())
                    sqlite3_bind_int64(select.pointer, 3, 20)
                    var rows: [(Int64, String)] = []
                    while sqlite3_step(select.pointer) == SQLITE_ROW {
                        rows.append((sqlite3_column_int64(select.pointer, 0), select.text(1)))
                    }
                    sqlite3_reset(select.pointer)
                    blackHole(rows)
                }
            } / Double(perRound)
        }, subject: {
            try seconds {
                for _ in 0..<perRound {
                    i = (i + 1) % searches.count
                    let choices = try store.choices(Self.form, field: "customer_id", search: searches[i], limit: 20)
                    found += choices.count
                    blackHole(choices)
                }
            } / Double(perRound)
        })
        guard found > 0 else { throw BenchError("the picker found nothing") }
        return .ratio("picker search (\(referencedRows) referenced rows)", paired, unit: "ms", scale: 1e3, atMost: 1.5)
    }
}
