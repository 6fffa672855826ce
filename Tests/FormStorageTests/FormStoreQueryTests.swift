import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// Streaming reads (`forEachRecord`) and batched writes (`writeBatch`), and a
/// store opened without FormStore's own tables.
@Suite struct FormStoreQueryTests {
    let directory: TemporaryDirectory
    let store: FormStore

    init() throws {
        directory = try TemporaryDirectory()
        let database = try Database(path: directory.path("query.sqlite"))
        try database.write { conn in
            try conn.executeScript(#"""
                CREATE TABLE "order items" ("order" INTEGER NOT NULL, "line no" INTEGER NOT NULL, product TEXT NOT NULL,
                    note TEXT, shipped DATE, PRIMARY KEY ("order", "line no")) WITHOUT ROWID;
                INSERT INTO "order items" VALUES (2, 1, 'Pie', '', NULL), (1, 2, 'Cake', NULL, '2024-01-31'),
                                                 (1, 1, 'Tea', 'hot', NULL);
                """#)
        }
        store = try FormStore(database: database, applyingMigrations: false)
    }

    var form: Form {
        get throws { FormInference.form(for: try store.database.read { try $0.tableInfo("order items") }) }
    }

    func keys(where filters: [RecordFilter] = [], limit: Int? = nil) throws -> [String] {
        var keys: [String] = []
        try store.forEachRecord(try form, where: filters, limit: limit) { keys.append($0.key.description) }
        return keys
    }

    @Test func recordsStreamInKeyOrder() throws {
        #expect(try keys() == ["order=1,line no=1", "order=1,line no=2", "order=2,line no=1"])
        #expect(try keys(limit: 2) == ["order=1,line no=1", "order=1,line no=2"])
        var first: StoredRecord?
        try store.forEachRecord(try form, limit: 1) { first = $0 }
        #expect(first?.values["product"] == "Tea")
    }

    @Test func queriesSortSkipSearchAndCompare() throws {
        func keys(_ query: RecordQuery) throws -> [String] {
            var keys: [String] = []
            try store.forEachRecord(try form, query: query) { keys.append($0.key.description) }
            return keys
        }
        #expect(try keys(RecordQuery(order: [RecordOrder(field: "product", descending: true)], offset: 1))
            == ["order=2,line no=1", "order=1,line no=2"])
        #expect(try keys(RecordQuery(search: "HO")) == ["order=1,line no=1"])
        #expect(try keys(RecordQuery(search: "%")).isEmpty)
        #expect(try keys(RecordQuery(filters: [RecordFilter(field: "line no", test: .compare(.greater, 1))]))
            == ["order=1,line no=2"])
        #expect(try keys(RecordQuery(filters: [RecordFilter(field: "note", test: .isNull)])) == ["order=1,line no=2"])
        #expect(try keys(RecordQuery(filters: [RecordFilter(field: "product", test: .contains("a"))]))
            == ["order=1,line no=1", "order=1,line no=2"])
    }

    @Test func storedRowsAreTheValuesSQLiteHolds() throws {
        var rows: [[DatabaseValue]] = []
        try store.forEachStoredRow(try form, columns: ["line no", "note", "shipped"]) { rows.append($0) }
        #expect(rows == [[1, "hot", nil], [2, nil, "2024-01-31"], [1, "", nil]])
    }

    @Test func filtersCompareStoredValuesThroughTheirCoding() throws {
        #expect(try keys(where: [RecordFilter(field: "order", value: 1)]) == ["order=1,line no=1", "order=1,line no=2"])
        let shipped = try #require(ISO8601DateFormatter().date(from: "2024-01-31T00:00:00Z"))
        #expect(try keys(where: [RecordFilter(field: "shipped", value: .date(shipped))]) == ["order=1,line no=2"])
        #expect(try keys(where: [RecordFilter(field: "shipped", value: .null)]).count == 2)
        #expect(try keys(where: [.isEmpty("note")]) == ["order=1,line no=2", "order=2,line no=1"])
        #expect(try keys(where: [RecordFilter(field: "order", value: 1), RecordFilter(field: "product", value: "Pie")]).isEmpty)
    }

    /// An order against a number matches numbers only: SQLite ranks text
    /// and BLOBs above every number, so `qty > 100` matched `'n/a'` and `x'02'`.
    @Test func aNumberOrdersOnlyNumbers() throws {
        try store.database.write { conn in
            try conn.executeScript("""
                CREATE TABLE stock (id INTEGER PRIMARY KEY, qty INTEGER, price NUMERIC);
                INSERT INTO stock VALUES (1, 5, 5), (2, 'n/a', 'abc'), (3, x'02', x'03'), (4, 200, '200'), (5, NULL, NULL);
                """)
        }
        let stock = FormInference.form(for: try store.database.read { try $0.tableInfo("stock") })
        func ids(_ filter: RecordFilter) throws -> [String] {
            var ids: [String] = []
            try store.forEachRecord(stock, where: [filter]) { ids.append($0.key.values.map { $0.intValue.map(String.init) ?? "?" }.joined()) }
            return ids
        }
        #expect(try ids(RecordFilter(field: "qty", test: .compare(.greater, .int(100)))) == ["4"])
        #expect(try ids(RecordFilter(field: "qty", test: .compare(.lessOrEqual, .int(300)))) == ["1", "4"])
        #expect(try ids(RecordFilter(field: "price", test: .compare(.greaterOrEqual, .double(1)))) == ["1", "4"])
        // (In)equality is unchanged: `!=` matches what is not the number, NULL too.
        #expect(try ids(RecordFilter(field: "qty", test: .compare(.notEqual, .int(5)))) == ["2", "3", "4", "5"])
    }

    /// A date field shows a day, so a filter compares days, whatever form a
    /// row holds its date in (text with a time, epoch seconds, a Julian day,
    /// an INTEGER yyyymmdd).
    @Test func aDateFieldIsComparedByDay() throws {
        try store.database.write { conn in
            try conn.executeScript("""
                CREATE TABLE visits (id INTEGER PRIMARY KEY, day DATE);
                INSERT INTO visits VALUES (1, '2024-01-02'), (2, '2024-01-02 10:00:00'), (3, 1704189600),
                    (4, 2460311.75), (5, '2024-01-01 23:59:59'), (6, '2024-01-03'), (7, '1969-12-31 12:00:00'), (8, NULL),
                    (9, 20240102), (10, 20240231), (11, '2024-01-02 01:30:00 +0200'), (12, '2024-01-02 01:30:00+02'),
                    (13, '2024-01-01T23:30:00-0100'), (14, '2024/01/02'), (15, '02.01.2024 10:00:00'), (16, '2024/01/01'),
                    (17, '2024-1-2'), (18, '2.1.2024 23:00:00 -0900'), (19, '2024-1-1 9:00');
                """)
        }
        let visits = FormInference.form(for: try store.database.read { try $0.tableInfo("visits") })
        #expect(visits.field("day")?.kind == .date)
        func ids(_ comparison: RecordFilter.Comparison, _ day: String) throws -> [String] {
            let date = try #require(ISO8601DateFormatter().date(from: day + "T00:00:00Z"))
            var ids: [String] = []
            try store.forEachRecord(visits, where: [RecordFilter(field: "day", test: .compare(comparison, .date(date)))]) {
                ids.append($0.key.values.map { $0.intValue.map(String.init) ?? "?" }.joined())
            }
            return ids
        }
        // Offsets without their colon are read as the fields read them: 11 and 12 are 2024-01-01 in UTC, 13 is 2024-01-02.
        // Every layout the field reads, read the same in SQL (`formstore_instant`): 18 is the 3rd in UTC.
        #expect(try ids(.equal, "2024-01-02") == ["1", "2", "3", "4", "9", "13", "14", "15", "17"])
        #expect(try ids(.less, "2024-01-02") == ["5", "7", "11", "12", "16", "19"])
        // 20240231 reads as SQLite's julianday() reads 2024-02-31: March 2.
        #expect(try ids(.greaterOrEqual, "2024-01-03") == ["6", "10", "18"])
        #expect(try ids(.equal, "2024-03-02") == ["10"])
        #expect(try ids(.equal, "1969-12-31") == ["7"])
        #expect(try ids(.notEqual, "2024-01-02") == ["5", "6", "7", "8", "10", "11", "12", "16", "18", "19"])
    }

    @Test func aFilterOnAnUnknownColumnIsRefused() throws {
        #expect(throws: FormStoreError.self) {
            try store.forEachRecord(try form, where: [RecordFilter(field: "colour", value: "red")]) { _ in }
        }
    }

    @Test func anErrorFromTheBodyStopsTheQuery() throws {
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try store.forEachRecord(try form) { _ in
                seen += 1
                throw Stop()
            }
        }
        #expect(seen == 1)
        #expect(try keys().count == 3)  // the statement was reset and can run again
    }

    @Test func aBatchInsertsAndUpdatesInOneTransaction() throws {
        let form = try form
        let count = try store.writeBatch(form) { batch -> Int in
            #expect(batch.keyColumns == ["order", "line no"])
            for line in 3...100 {
                try batch.insert(["order": 1, "line no": .int(Int64(line)), "product": .text("Item \(line)")])
            }
            #expect(try batch.update(RecordKey(columns: ["order", "line no"], values: [1, 1]), changes: ["product": "Green tea"]))
            #expect(try !batch.update(RecordKey(columns: ["order", "line no"], values: [9, 9]), changes: ["product": "x"]))
            return try #require(try batch.load(RecordKey(columns: ["order", "line no"], values: [1, 50]))).values.count
        }
        #expect(count == 5)
        #expect(try keys().count == 101)
        #expect(try store.load(form, key: RecordKey(columns: ["order", "line no"], values: [1, 1]))?.values["product"] == "Green tea")
    }

    @Test func aFailedStatementUndoesOnlyItselfAndAThrowUndoesTheBatch() throws {
        let form = try form
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try store.writeBatch(form) { batch in
                try batch.insert(["order": 3, "line no": 1, "product": "Jam"])
                let duplicate = databaseError { try batch.insert(["order": 3, "line no": 1, "product": "Jam"]) }
                #expect(duplicate?.isConstraint == true)
                #expect(try batch.load(RecordKey(columns: ["order", "line no"], values: [3, 1])) != nil)
                throw Abandon()
            }
        }
        #expect(try keys().count == 3)
    }

    @Test func aDryRunBatchRollsBack() throws {
        let inserted = try store.writeBatch(try form, commit: false) { batch -> Bool in
            try batch.insert(["order": 3, "line no": 1, "product": "Jam"])
            return try batch.load(RecordKey(columns: ["order", "line no"], values: [3, 1])) != nil
        }
        #expect(inserted)
        #expect(try keys().count == 3)
    }

    @Test func withoutMigrationsThereAreNoDraftsAndNoFormStoreTables() throws {
        #expect(try !store.hasDraftTable())
        #expect(try store.drafts(form: nil).isEmpty)
        #expect(try store.draft(id: "x") == nil)
        let tables = try store.database.read { try $0.tableNames(includingInternal: true) }
        #expect(tables == ["order items"])
    }
}
