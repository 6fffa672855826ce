import FormStorage
import Foundation

// formstore-bench [--quick] [--json PATH] [--only CASE,...]
// Measures FormStore against SQLite's C API and the sqlite3 command; see README, Performance.

let usage = "usage: formstore-bench [--quick] [--json PATH] [--only load,save,keystroke,wide,picker,service,typing,budgets,history,live,import,export,cold,web,postgres] [--postgres URL]"

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--typing-child", arguments.count == 2 {
    try TypingCase.child(databasePath: arguments[1])
}

var quick = false
var jsonPath: String?
// The PostgreSQL cases run only against a server named here (or by FORMSTORE_BENCH_POSTGRES_URL).
var postgresURL = ProcessInfo.processInfo.environment["FORMSTORE_BENCH_POSTGRES_URL"]
var only: Set<String>?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--quick": quick = true
    case "--json" where !arguments.isEmpty: jsonPath = arguments.removeFirst()
    case "--postgres" where !arguments.isEmpty: postgresURL = arguments.removeFirst()
    case "--only" where !arguments.isEmpty: only = Set(arguments.removeFirst().split(separator: ",").map(String.init))
    case "-h", "--help": print(usage); exit(0)
    default: FileHandle.standardError.write(Data("Error: unexpected \(argument)\n\(usage)\n".utf8)); exit(64)
    }
}

let chosen = only
let size: RunSize = quick ? .quick : .full
func selected(_ name: String) -> Bool { chosen?.contains(name) ?? true }

do {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let started = Date()
    var rows: [ResultRow] = []
    let library = InProcessCases(directory: scratch, size: size)
    let setup = try library.prepare()
    if selected("load") { rows += [try library.load(setup), try library.loadFloor(setup), try library.loadKeptFloor(setup)] }
    if selected("save") {
        rows.append(try library.save(setup, .normal, atMost: 1.5))
        rows.append(try library.save(setup, .full, atMost: 1.1))
        rows.append(try library.saveWithoutHistory(setup, .normal))
        rows.append(try library.saveFloor(setup, .normal, atMost: 1.5))
        rows.append(try library.saveFloor(setup, .full, atMost: 1.1))
    }
    if selected("keystroke") { rows.append(try library.keystroke(setup)) }
    if selected("wide") {
        try library.prepareWide(setup)
        rows.append(try library.wideKeystroke(setup))
        rows.append(try library.wideSave(setup, .normal, atMost: 2.0))
        rows.append(try library.wideSaveFloor(setup, .normal, atMost: 1.5))
    }
    if selected("picker") { rows.append(try PickerCase(directory: scratch, size: size).run()) }
    if selected("service") { rows += try ServiceCase(directory: scratch, size: size).run(setup) }
    if selected("typing") { rows += try TypingCase(directory: scratch, size: size).run() }
    if selected("history") { rows += try LiveCases(directory: scratch, size: size).historyOverhead(setup) }
    if selected("live") {
        let live = LiveCases(directory: scratch, size: size)
        rows.append(try live.idleSession(setup))
        rows += try live.commitHeard(setup)
    }
    if selected("budgets") {
        let budgets = BudgetCases(directory: scratch, size: size)
        rows += [try budgets.conditionalForm(), try budgets.pathologicalPattern()]
    }
    if only?.contains("web") == true {
        // Not in the default run: it needs wrk (and Datasette for its comparison) and binds ports.
        let formstore = executableDirectory() + "/formstore"
        guard FileManager.default.isExecutableFile(atPath: formstore) else {
            throw BenchError("no formstore next to the bench at \(formstore): build it first (swift build -c release)")
        }
        rows += try WebCase(directory: scratch, size: size, formstore: formstore).run()
    }
    if selected("import") || selected("export") || selected("cold") {
        let formstore = executableDirectory() + "/formstore"
        guard FileManager.default.isExecutableFile(atPath: formstore) else {
            throw BenchError("no formstore next to the bench at \(formstore): build it first (swift build -c release)")
        }
        guard let sqlite3 = which("sqlite3") else { throw BenchError("the sqlite3 command is not installed") }
        let commands = CommandCases(directory: scratch, size: size, formstore: formstore, sqlite3: sqlite3,
                                    sqliteUtils: try sqliteUtilsCommand())
        if selected("import") { rows += try commands.importCase() + commands.importScaling() }
        if selected("export") || selected("cold") { try commands.prepareExport() }
        if selected("export") { rows += try commands.exportCase() }
        if selected("cold") { rows += try commands.coldStart() }
    }
    if selected("postgres"), let postgresURL {
        let postgres = PostgresCases(url: postgresURL, size: size)
        let store = try postgres.prepare()
        rows += [try postgres.load(store), try postgres.save(store), try postgres.writers(store)]
        rows += try postgres.live(store, LiveCases(directory: scratch, size: size))
    }
    let report = Report(mode: size.rawValue, date: ISO8601DateFormatter().string(from: started),
                        machine: machineDescription(), settings: try settings(setup), rows: rows)
    print(report.table())
    print(report.settingsLine)
    print(String(format: "%@ run, %.0f s", report.mode, Date().timeIntervalSince(started)))
    if let jsonPath {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: jsonPath))
    }
} catch {
    FileHandle.standardError.write(Data("formstore-bench: \(error)\n".utf8))
    exit(1)
}
