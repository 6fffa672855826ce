import FormStorage
import Foundation

/// Import, export and cold start: the `formstore` command against `sqlite3`
/// (and `sqlite-utils`, when installed), each a process timed from spawn to exit.
struct CommandCases {
    let directory: Scratch
    let size: RunSize
    let formstore: String
    let sqlite3: String

    static let table = "bench_rows"
    static let columns: [(name: String, type: String)] = [
        ("id", "INTEGER PRIMARY KEY"), ("name", "TEXT"), ("email", "TEXT"), ("age", "INTEGER"), ("score", "REAL"),
        ("city", "TEXT"), ("country", "TEXT"), ("visits", "INTEGER"), ("notes", "TEXT"), ("joined", "TEXT"),
    ]

    var importRows: Int { size.pick(smoke: 1_000, quick: 100_000, full: 100_000) }
    var exportRows: Int { size.pick(smoke: 1_000, quick: 100_000, full: 1_000_000) }

    var smallDatabase: String { directory.file("export-10k.sqlite") }
    var largeDatabase: String { directory.file("export-large.sqlite") }

    /// Fills the databases export and cold start read.
    func prepareExport() throws {
        _ = try filledDatabase("export-10k.sqlite", count: 10_000)
        _ = try filledDatabase("export-large.sqlite", count: exportRows)
    }

    /// An empty database (WAL, as FormStore leaves it) holding the table.
    private func emptyDatabase(_ name: String) throws -> String {
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
        try writeImportFiles(ndjson: ndjson, csv: csv)
        let template = try emptyDatabase("import-template.sqlite")
        var round = 0
        /// Seconds for one import into a fresh copy of the empty database.
        func fresh(_ command: (String) throws -> ChildRun) throws -> Double {
            round += 1
            let path = directory.file("import-\(round).sqlite")
            try FileManager.default.copyItem(atPath: template, toPath: path)
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let seconds = try command(path).wallSeconds
            let db = try RawConnection(path: path)
            guard try db.text("SELECT count(*) FROM \(Self.table)") == String(importRows) else {
                throw BenchError("import into \(path) did not keep every row")
            }
            return seconds
        }
        let formstoreImport = { (db: String) in
            // It reports "Imported N row(s)" on stderr: kept out of the table.
            try run([formstore, "--db", db, "import", Self.table, ndjson, "--format", "ndjson"],
                    stderr: directory.file("import.err"))
        }
        let rounds = size.pick(smoke: 1, quick: 3, full: 5)
        let paired = try interleaved(rounds: rounds, baseline: {
            try fresh { try run([sqlite3, $0, ".import --csv --skip 1 \(csv) \(Self.table)"]) }
        }, subject: { try fresh(formstoreImport) })
        var rows = [ResultRow.ratio("import 100k rows (vs sqlite3 .import)", paired, unit: "s", scale: 1, atMost: 1.5)]
        if let utils = which("sqlite-utils") {
            let againstUtils = try interleaved(rounds: rounds, baseline: {
                try fresh { try run([utils, "insert", $0, Self.table, ndjson, "--nl"]) }
            }, subject: { try fresh(formstoreImport) })
            rows.append(ResultRow("import 100k rows (vs sqlite-utils insert)", formstore: againstUtils.subject,
                                  baseline: againstUtils.baseline, unit: "s", goal: "≥ 5× faster (≤ 0.2×)",
                                  met: againstUtils.ratio <= 0.2))
        } else {
            rows.append(ResultRow("import 100k rows (vs sqlite-utils insert)", formstore: paired.subject, baseline: nil,
                                  unit: "s", goal: "≥ 5× faster (≤ 0.2×)", met: nil,
                                  note: "sqlite-utils is not installed (pip install sqlite-utils); not measured"))
        }
        return rows
    }

    /// The same rows as NDJSON and as CSV with a header.
    private func writeImportFiles(ndjson: String, csv: String) throws {
        var lines = ""
        var table = Self.columns.map(\.name).joined(separator: ",") + "\n"
        lines.reserveCapacity(importRows * 200)
        table.reserveCapacity(importRows * 120)
        for i in 1...importRows {
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

    // MARK: Export

    func exportCase() throws -> [ResultRow] {
        let out = directory.file("export.out")
        func formstoreExport(_ db: String, samplingMemory: Bool = false) throws -> ChildRun {
            try run([formstore, "--db", db, "export", Self.table, "--format", "ndjson"], stdout: out,
                    samplingMemory: samplingMemory)
        }
        func sqliteExport(samplingMemory: Bool = false) throws -> ChildRun {
            try run([sqlite3, "-json", largeDatabase, "SELECT * FROM \(Self.table) ORDER BY id"], stdout: out,
                    samplingMemory: samplingMemory)
        }
        let paired = try interleaved(rounds: size.pick(smoke: 1, quick: 3, full: 5), baseline: { try sqliteExport().wallSeconds },
                                     subject: { try formstoreExport(largeDatabase).wallSeconds })
        let lines = try countLines(out)
        guard lines == exportRows else { throw BenchError("export wrote \(lines) lines, not \(exportRows)") }
        // Memory in runs of their own: sampling it slows the process down.
        let peakSmall = try formstoreExport(smallDatabase, samplingMemory: true).peakMiB
        let peakLarge = try formstoreExport(largeDatabase, samplingMemory: true).peakMiB
        let sqlitePeak = try sqliteExport(samplingMemory: true).peakMiB
        let label = exportRows >= 1_000_000 ? "1M" : "\(exportRows / 1000)k"
        return [
            .ratio("export \(label) rows ndjson (vs sqlite3 -json)", paired, unit: "s", scale: 1, atMost: 1.0),
            ResultRow("export peak memory, 10k rows", formstore: peakSmall, baseline: nil, unit: "MiB",
                      goal: "< 64 MiB", met: peakSmall < 64),
            ResultRow("export peak memory, \(label) rows", formstore: peakLarge, baseline: sqlitePeak, unit: "MiB",
                      goal: "< 64 MiB, flat", met: peakLarge < 64 && peakLarge < peakSmall + 8,
                      note: "VmHWM sampled every ms; flat: within 8 MiB of the 10k export's"),
        ]
    }

    private func countLines(_ path: String) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
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
        return rows
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
