import FormStorage
import Foundation

/// Import, export and cold start: the `formstore` command against `sqlite3`
/// and `sqlite-utils`, each a process timed from spawn to exit.
struct CommandCases {
    let directory: Scratch
    let size: RunSize
    let formstore: String
    let sqlite3: String
    /// `sqlite-utils`, from `Scripts/sqlite-utils-venv.sh` (`sqliteUtilsCommand()`).
    let sqliteUtils: String

    static let table = "bench_rows"
    static let columns: [(name: String, type: String)] = [
        ("id", "INTEGER PRIMARY KEY"), ("name", "TEXT"), ("email", "TEXT"), ("age", "INTEGER"), ("score", "REAL"),
        ("city", "TEXT"), ("country", "TEXT"), ("visits", "INTEGER"), ("notes", "TEXT"), ("joined", "TEXT"),
    ]

    var importRows: Int { size.pick(smoke: 1_000, quick: 100_000, full: 100_000) }
    var exportRows: Int { size.pick(smoke: 1_000, quick: 100_000, full: 1_000_000) }
    /// The row counts import and export are run at, to show time linear in rows and memory flat.
    var scales: [Int] { size.pick(smoke: [1_000, 2_000], quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]) }

    var smallDatabase: String { directory.file("export-10k.sqlite") }
    var largeDatabase: String { directory.file("export-large.sqlite") }

    /// The database of `count` rows that export reads at that scale.
    func exportDatabase(rows count: Int) -> String {
        count == exportRows ? largeDatabase : count == 10_000 ? smallDatabase : directory.file("export-\(count).sqlite")
    }

    /// Fills the databases export and cold start read.
    func prepareExport() throws {
        _ = try filledDatabase("export-10k.sqlite", count: 10_000)
        _ = try filledDatabase("export-large.sqlite", count: exportRows)
        for count in scales where exportDatabase(rows: count) == directory.file("export-\(count).sqlite") {
            _ = try filledDatabase("export-\(count).sqlite", count: count)
        }
    }

    /// An empty database (WAL, as FormStore leaves it) holding the table.
    func emptyDatabase(_ name: String) throws -> String {
        let path = directory.file(name)
        let db = try RawConnection(path: path)
        try db.execute("CREATE TABLE \(Self.table) (\(Self.columns.map { "\($0.name) \($0.type)" }.joined(separator: ", ")))")
        return path
    }

    /// A database with `count` rows.
    private func filledDatabase(_ name: String, count: Int) throws -> String {
        let path = try emptyDatabase(name)
        let db = try RawConnection(path: path)
        try db.execute("""
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO \(Self.table) SELECT i, 'Name ' || i, 'user' || i || '@example.com', 20 + i % 60,
                (i % 1000) / 8.0, 'City ' || (i % 100), 'Country', i % 37, 'Some notes about row ' || i,
                '2024-01-' || printf('%02d', 1 + i % 28) FROM n;
            COMMIT;
            """)
        return path
    }

    // MARK: Import

    func importCase() throws -> [ResultRow] {
        let ndjson = directory.file("rows.ndjson")
        let csv = directory.file("rows.csv")
        try writeImportFiles(ndjson: ndjson, csv: csv, count: importRows)
        let template = try emptyDatabase("import-template.sqlite")
        func fresh(_ command: (String) throws -> ChildRun) throws -> Double {
            try freshImport(template: template, rows: importRows, command).wallSeconds
        }
        let formstoreImport = { (db: String) in try self.formstoreImport(ndjson, into: db) }
        let rounds = size.pick(smoke: 1, quick: 3, full: 5)
        let paired = try interleaved(rounds: rounds, baseline: {
            try fresh { try run([sqlite3, $0, ".import --csv --skip 1 \(csv) \(Self.table)"]) }
        }, subject: { try fresh(formstoreImport) })
        let label = Self.label(importRows)
        let againstUtils = try interleaved(rounds: rounds, baseline: {
            try fresh { try run([sqliteUtils, "insert", $0, Self.table, ndjson, "--nl"]) }
        }, subject: { try fresh(formstoreImport) })
        return [
            .ratio("import \(label) rows × 10 NDJSON (vs sqlite3 .import of the CSV)", paired, unit: "s", scale: 1, atMost: 3),
            ResultRow("import \(label) rows × 10 NDJSON (vs sqlite-utils insert --nl)", formstore: againstUtils.subject,
                      baseline: againstUtils.baseline, unit: "s", goal: "≥ 5× faster (≤ 0.2×)",
                      met: againstUtils.ratio <= 0.2),
        ]
    }

    /// `formstore import` of an NDJSON file.
    func formstoreImport(_ ndjson: String, into db: String, samplingMemory: Bool = false) throws -> ChildRun {
        // It reports "Imported N row(s)" on stderr: kept out of the table.
        try run([formstore, "--db", db, "import", Self.table, ndjson, "--format", "ndjson"],
                stderr: directory.file("import.err"), samplingMemory: samplingMemory)
    }

    /// One import into a fresh copy of the empty database `template`, checked to keep all `rows`.
    func freshImport(template: String, rows: Int, _ command: (String) throws -> ChildRun) throws -> ChildRun {
        let path = directory.file("import-fresh.sqlite")
        try FileManager.default.copyItem(atPath: template, toPath: path)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let result = try command(path)
        let db = try RawConnection(path: path)
        guard try db.text("SELECT count(*) FROM \(Self.table)") == String(rows) else {
            throw BenchError("import into \(path) did not keep every row")
        }
        return result
    }

    /// NDJSON import of 10k, 100k and 1M rows: time per row and peak memory.
    func importScaling() throws -> [ResultRow] {
        let template = directory.file("import-template.sqlite")
        if !FileManager.default.fileExists(atPath: template) { _ = try emptyDatabase("import-template.sqlite") }
        let files = try scales.map { count in
            let ndjson = directory.file("rows-\(count).ndjson")
            try writeImportFiles(ndjson: ndjson, csv: directory.file("rows-\(count).csv"), count: count)
            return ndjson
        }
        let seconds = try scaledMedians { index in
            try freshImport(template: template, rows: scales[index]) { try formstoreImport(files[index], into: $0) }.wallSeconds
        }
        let peaks = try scales.indices.map { index in
            try freshImport(template: template, rows: scales[index]) {
                try formstoreImport(files[index], into: $0, samplingMemory: true)
            }.peakMiB
        }
        return scalingRows("import ndjson", seconds: seconds, peaks: peaks)
    }

    /// The same rows as NDJSON and as CSV with a header.
    func writeImportFiles(ndjson: String, csv: String, count: Int) throws {
        var lines = ""
        var table = Self.columns.map(\.name).joined(separator: ",") + "\n"
        lines.reserveCapacity(count * 200)
        table.reserveCapacity(count * 120)
        for i in 1...count {
            let day = String(format: "%02d", 1 + i % 28)
            let score = Double(i % 1000) / 8
            lines += #"{"id":\#(i),"name":"Name \#(i)","email":"user\#(i)@example.com","age":\#(20 + i % 60),"#
                + #""score":\#(score),"city":"City \#(i % 100)","country":"Country","visits":\#(i % 37),"#
                + #""notes":"Some notes about row \#(i)","joined":"2024-01-\#(day)"}"# + "\n"
            table += "\(i),Name \(i),user\(i)@example.com,\(20 + i % 60),\(score),City \(i % 100),Country,\(i % 37),"
                + "Some notes about row \(i),2024-01-\(day)\n"
        }
        try lines.write(toFile: ndjson, atomically: false, encoding: .utf8)
        try table.write(toFile: csv, atomically: false, encoding: .utf8)
    }

    // MARK: Cold start

    /// `show` against `sqlite3 -json` and against the floor (`formstore-floor`:
    /// a static Swift program that only opens SQLite and prints the row), and
    /// the binaries' sizes: the ratio's floor measured, not argued.
    func coldStart() throws -> [ResultRow] {
        let db = smallDatabase
        let out = directory.file("show.out")
        let rounds = size.pick(smoke: 1, quick: 31, full: 101)
        let show = [formstore, "--db", db, "show", Self.table, "4242", "--format", "json"]
        let paired = try interleaved(rounds: rounds, baseline: {
            try run([sqlite3, "-json", db, "SELECT * FROM \(Self.table) WHERE id = 4242"], stdout: out).wallSeconds
        }, subject: {
            try run(show, stdout: out).wallSeconds
        })
        var rows: [ResultRow] = [.ratio("cold start: show one row as JSON (vs sqlite3 -json)", paired, unit: "ms", scale: 1e3, atMost: 1.5)]
        let floor = URL(fileURLWithPath: formstore).deletingLastPathComponent().appendingPathComponent("formstore-floor").path
        guard FileManager.default.isExecutableFile(atPath: floor) else { return rows }
        let floorPaired = try interleaved(rounds: rounds, baseline: {
            try run([floor, db, Self.table, "4242"], stdout: out).wallSeconds
        }, subject: {
            try run(show, stdout: out).wallSeconds
        })
        rows.append(.ratio("cold start: show one row as JSON (vs the floor binary)", floorPaired, unit: "ms", scale: 1e3, atMost: 1.5,
                           note: "formstore-floor: static Swift, opens SQLite, prints the row; nothing else"))
        let mebibyte = 1024.0 * 1024.0
        let formstoreSize = Double(try fileSize(formstore)) / mebibyte
        rows.append(ResultRow("formstore binary size (vs formstore-floor)", formstore: formstoreSize,
                              baseline: Double(try fileSize(floor)) / mebibyte, unit: "MiB",
                              goal: "≤ 20 MiB", met: formstoreSize <= 20,
                              note: "sqlite3 \(String(format: "%.1f", Double(try fileSize(sqlite3)) / mebibyte)) MiB (links libsqlite3 dynamically)"))
        // What the dynamic loader maps and relocates before `main` (libpq and
        // libmicrohttpd are opened on use, not linked: docs/binary.md).
        rows.append(ResultRow("shared libraries loaded at start: formstore (vs formstore-floor)",
                              formstore: Double(try sharedLibraryCount(formstore)),
                              baseline: Double(try sharedLibraryCount(floor)), unit: "", goal: "–", met: nil,
                              note: "sqlite3: \(try sharedLibraryCount(sqlite3)) (ldd)"))
        return rows
    }

    /// The shared libraries `ldd` lists for `path` (the loader itself and the vDSO left out).
    private func sharedLibraryCount(_ path: String) throws -> Int {
        let listing = directory.file("ldd.out")
        _ = try run(["/usr/bin/ldd", path], stdout: listing)
        return try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains(" => /") }.count
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
