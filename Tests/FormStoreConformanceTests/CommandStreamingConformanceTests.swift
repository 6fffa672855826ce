import FormStoreTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `export` and `list` of a large table on both backends: every row arrives,
/// in key order, and the command's memory does not grow with the table
/// (PostgreSQL's rows are read one at a time, as SQLite's are stepped).
@Suite struct CommandStreamingConformanceTests {
    static let rows = 40_000
    /// Each row carries this much text, so holding the result would take ~120 MB.
    static let width = 3_000

    static let schema = Schema(
        sqlite: """
            CREATE TABLE log (id INTEGER PRIMARY KEY, line TEXT NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO log SELECT i, printf('%0\(width)d', i) FROM n;
            """,
        postgres: """
            CREATE TABLE log (id integer PRIMARY KEY, line text NOT NULL);
            INSERT INTO log SELECT i, lpad(i::text, \(width), '0') FROM generate_series(1, \(rows)) i;
            """)

    @Test(arguments: BackendKind.allCases)
    func exportWritesEveryRowOfALargeTableInKeyOrder(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.schema)
        let exported = try runBinary(["--db", backend.location, "export", "log", "--format", "ndjson"])
        #expect(exported.code == 0, "\(kind): \(exported.errors)")
        let lines = exported.output.split(separator: "\n")
        #expect(lines.count == Self.rows, "\(kind)")
        #expect(lines.first?.hasPrefix(#"{"id": 1, "#) == true || lines.first?.hasPrefix(#"{"id":1,"#) == true,
                "\(kind): \(lines.first ?? "")")
        #expect(lines.last?.contains(String(repeating: "0", count: Self.width - 5) + "40000") == true, "\(kind)")
        let page = try runBinary(["--db", backend.location, "list", "log", "--offset", "39997", "--format", "csv"])
        #expect(page.code == 0, "\(kind): \(page.errors)")
        #expect(page.output.split(whereSeparator: \.isNewline).map { $0.prefix(6) } == ["id,lin", "39998,", "39999,", "40000,"],
                "\(kind): \(page.output.prefix(200))")
    }

    @Test(arguments: BackendKind.allCases)
    func exportsMemoryDoesNotGrowWithTheTable(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.schema)
        let tableMegabytes = Self.rows * Self.width / 1_000_000
        let peak = try Self.peakMegabytes(["--db", backend.location, "export", "log", "--format", "ndjson"])
        // Well below the table's size: the rows were never all held at once.
        #expect(peak < tableMegabytes * 2 / 3, "\(kind): peak \(peak) MB exporting \(tableMegabytes) MB")
    }

    /// The peak resident memory of one run of the binary, output discarded:
    /// the kernel's high-water mark of its own image (`VmHWM`), read until it
    /// exits. (`wait4`'s usage would count the test process, which spawned it.)
    static func peakMegabytes(_ arguments: [String]) throws -> Int {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let executable = try formstoreBinary()
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "FORMSTORE_DB")
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else { throw CocoaError(.executableLoad) }
        var peakKilobytes = 0
        var status: Int32 = 0
        while true {
            // Read before reaping: once it has exited its memory is gone, and with it the mark.
            if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") {
                peakKilobytes = max(peakKilobytes, kilobytes)
            }
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped == -1 && errno != EINTR) { break }
            usleep(10_000)
        }
        #expect((status & 0x7f) == 0 && (status >> 8) & 0xff == 0, "exited with status \(status)")
        return peakKilobytes / 1_024
    }
}
