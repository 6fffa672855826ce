import FormStorage
import Foundation

/// One line of the results: a figure of FormStore's, its baseline's, and the goal.
struct ResultRow: Codable {
    var name: String
    /// FormStore's median (in `unit`), `nil` when not measured.
    var formstore: Double?
    var baseline: Double?
    var unit: String
    /// formstore / baseline when both were measured.
    var ratio: Double?
    var goal: String
    /// `nil` when the goal could not be judged (the baseline is not installed).
    var met: Bool?
    var note: String?

    init(_ name: String, formstore: Double?, baseline: Double?, unit: String, goal: String,
         met: Bool?, note: String? = nil) {
        self.name = name
        self.formstore = formstore
        self.baseline = baseline
        self.unit = unit
        if let formstore, let baseline, baseline > 0 { ratio = formstore / baseline }
        self.goal = goal
        self.met = met
        self.note = note
    }

    /// A comparison whose goal is a ceiling on the ratio.
    static func ratio(_ name: String, _ paired: Paired, unit: String, scale: Double, atMost limit: Double,
                      note: String? = nil) -> ResultRow {
        ResultRow(name, formstore: paired.subject * scale, baseline: paired.baseline * scale, unit: unit,
                  goal: "≤ \(limit)×", met: paired.ratio <= limit, note: note)
    }
}

struct Report: Codable {
    var mode: String
    var date: String
    var machine: String
    var settings: SQLiteSetting
    var rows: [ResultRow]

    func table() -> String {
        let header = ["case", "FormStore", "baseline", "ratio", "goal", "met?"]
        let lines = rows.map { row -> [String] in
            [row.name, Self.format(row.formstore, row.unit), Self.format(row.baseline, row.unit),
             row.ratio.map { String(format: "%.2f×", $0) } ?? "–", row.goal,
             row.met.map { $0 ? "yes" : "NO" } ?? "n/a"]
        }
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max()! }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: " | ") + " |"
        }
        var out = [line(header), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"]
        out += lines.map(line)
        for row in rows { if let note = row.note { out.append("  \(row.name): \(note)") } }
        return out.joined(separator: "\n")
    }

    static func format(_ value: Double?, _ unit: String) -> String {
        guard let value else { return "–" }
        switch unit {
        case "": return String(format: "%.2f", value)
        case "MiB", "writes/s": return String(format: "%.1f %@", value, unit)
        case "lost": return value == 0 ? "nothing lost" : String(format: "%.0f lost", value)
        default: return String(format: value < 10 ? "%.2f %@" : value < 100 ? "%.1f %@" : "%.0f %@", value, unit)
        }
    }
}

extension Report {
    var settingsLine: String {
        let s = settings
        return "SQLite \(s.sqliteVersion) (sqlite3 command \(s.sqlite3Command)); FormStore's connections: "
            + "journal_mode=\(s.journalMode), synchronous=\(s.synchronous) (save cases set NORMAL/FULL), "
            + "busy_timeout=\(s.busyTimeoutMilliseconds) ms, page_size=\(s.pageSize), foreign_keys=\(s.foreignKeys ? "ON" : "OFF"); "
            + "baselines use the same pragmas. Machine: \(machine)."
    }
}

/// The pragmas of a connection FormStore opens with its defaults.
func settings(_ path: String) throws -> SQLiteSetting {
    let store = try openStore(path)
    return try store.database.writeWithoutTransaction { conn in
        SQLiteSetting(
            sqliteVersion: try conn.fetchValue(String.self, "SELECT sqlite_version()") ?? "?",
            sqlite3Command: sqlite3CommandVersion(),
            journalMode: try conn.fetchValue(String.self, "PRAGMA journal_mode") ?? "?",
            synchronous: ["OFF", "NORMAL", "FULL", "EXTRA"][try conn.fetchValue(Int.self, "PRAGMA synchronous") ?? 0],
            busyTimeoutMilliseconds: Int(conn.configuration.busyTimeoutMilliseconds),
            pageSize: try conn.fetchValue(Int.self, "PRAGMA page_size") ?? 0,
            foreignKeys: try conn.fetchValue(Int.self, "PRAGMA foreign_keys") == 1)
    }
}

func sqlite3CommandVersion() -> String {
    guard let sqlite3 = which("sqlite3") else { return "not installed" }
    let out = NSTemporaryDirectory() + "/formstore-bench-sqlite3-version-\(getpid())"
    defer { unlink(out) }
    guard (try? run([sqlite3, "-version"], stdout: out)) != nil,
          let text = try? String(contentsOfFile: out, encoding: .utf8) else { return "?" }
    return String(text.split(separator: " ").first ?? "?")
}

func machineDescription() -> String {
    var name = utsname()
    uname(&name)
    let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let model = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
        .split(separator: "\n").first { $0.hasPrefix("model name") }
        .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, Linux \(release)"
}
