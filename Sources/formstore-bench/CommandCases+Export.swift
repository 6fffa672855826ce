import Foundation

/// Export: `formstore export` against `sqlite3 -json` and `sqlite3 -csv`, the
/// same rows in key order, and its time and peak memory at each scale.
extension CommandCases {
    func exportCase() throws -> [ResultRow] {
        let out = directory.file("export.out")
        let rounds = size.pick(smoke: 1, quick: 3, full: 5)
        let label = Self.label(exportRows)
        let ndjson = try interleaved(rounds: rounds, baseline: {
            try sqliteExport("-json", largeDatabase, to: out).wallSeconds
        }, subject: { try formstoreExport("ndjson", largeDatabase, to: out).wallSeconds })
        try expectLines(out, exportRows)
        let csv = try interleaved(rounds: rounds, baseline: {
            try sqliteExport("-csv", largeDatabase, to: out).wallSeconds
        }, subject: { try formstoreExport("csv", largeDatabase, to: out).wallSeconds })
        try expectLines(out, exportRows + 1)
        return [
            .ratio("export \(label) rows ndjson (vs sqlite3 -json)", ndjson, unit: "s", scale: 1, atMost: 1.0),
            .ratio("export \(label) rows csv (vs sqlite3 -csv)", csv, unit: "s", scale: 1, atMost: 1.0),
        ] + (try exportScaling(to: out))
    }

    /// NDJSON export of 10k, 100k and 1M rows: seconds per row flat (linear
    /// time) and peak memory flat and small, each size in runs of its own.
    private func exportScaling(to out: String) throws -> [ResultRow] {
        let databases = scales.map(exportDatabase(rows:))
        let seconds = try scaledMedians { index in
            let run = try formstoreExport("ndjson", databases[index], to: out).wallSeconds
            try expectLines(out, scales[index])
            return run
        }
        // Memory in a run of its own: sampling it slows the process down.
        let peaks = try databases.map { try formstoreExport("ndjson", $0, to: out, samplingMemory: true).peakMiB }
        return scalingRows("export ndjson", seconds: seconds, peaks: peaks)
    }

    /// The median of `measure(index)` for each of `scales`, the sizes taken in
    /// turn round by round (the order reversed every other round), as the
    /// paired cases alternate: one size measured after the other in a block
    /// put the host's drift between them (a full run once found 1M rows 1.34
    /// times slower a row than 100k, and 1.03-1.09 times in the runs beside it).
    func scaledMedians(_ measure: (Int) throws -> Double) rethrows -> [Double] {
        var samples = [[Double]](repeating: [], count: scales.count)
        for round in 0..<size.pick(smoke: 1, quick: 3, full: 3) {
            let order = round % 2 == 0 ? Array(scales.indices) : scales.indices.reversed()
            for index in order { samples[index].append(try measure(index)) }
        }
        return samples.map(median)
    }

    /// Rows showing time per row at the smallest and largest scale, and peak memory at each.
    func scalingRows(_ what: String, seconds: [Double], peaks: [Double]) -> [ResultRow] {
        let perRow = zip(seconds, scales).map { $0 / Double($1) * 1e6 }
        let sizes = scales.map(Self.label).joined(separator: " / ")
        let times = zip(seconds, scales).map { String(format: "%@ %.3f s", Self.label($1), $0) }.joined(separator: ", ")
        let memory = zip(peaks, scales).map { String(format: "%@ %.1f MiB", Self.label($1), $0) }.joined(separator: ", ")
        let flat = (peaks.max() ?? 0) - (peaks.min() ?? 0) < 8
        // Against the next smaller scale: at the smallest, starting the process outweighs the rows.
        let previous = perRow[max(0, perRow.count - 2)]
        return [
            ResultRow("\(what): time per row at \(Self.label(scales.last!)) (vs at \(Self.label(scales[max(0, scales.count - 2)])))",
                      formstore: perRow.last, baseline: previous, unit: "µs", goal: "linear (≤ 1.2×)",
                      met: perRow.last! <= previous * 1.2, note: times),
            ResultRow("\(what): peak memory at \(sizes) rows (the largest)", formstore: peaks.max(), baseline: nil,
                      unit: "MiB", goal: "< 32 MiB, flat", met: (peaks.max() ?? 0) < 32 && flat,
                      note: memory + "; VmHWM sampled every ms; flat: within 8 MiB of one another"),
        ]
    }

    private func formstoreExport(_ format: String, _ database: String, to out: String,
                                 samplingMemory: Bool = false) throws -> ChildRun {
        try run([formstore, "--db", database, "export", Self.table, "--format", format], stdout: out,
                samplingMemory: samplingMemory)
    }

    private func sqliteExport(_ mode: String, _ database: String, to out: String) throws -> ChildRun {
        // -header: a CSV header as export writes one (sqlite3 -json ignores it).
        try run([sqlite3, mode, "-header", database, "SELECT * FROM \(Self.table) ORDER BY id"], stdout: out)
    }

    private func expectLines(_ path: String, _ expected: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let lines = data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        guard lines == expected else { throw BenchError("export wrote \(lines) lines to \(path), not \(expected)") }
    }

    /// `10k`, `100k`, `1M`.
    static func label(_ count: Int) -> String {
        count >= 1_000_000 && count % 1_000_000 == 0 ? "\(count / 1_000_000)M" : count >= 1000 ? "\(count / 1000)k" : "\(count)"
    }
}
