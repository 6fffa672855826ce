import Foundation
import FormStoragePostgres
import FormStoreTestSupport
import Synchronization

/// The PostgreSQL server the conformance suite runs against: the one named by
/// `FORMSTORE_TEST_POSTGRES_URL`, else a throwaway cluster this process starts
/// once (initdb in a temporary directory, its socket in that directory, a
/// free port on 127.0.0.1) and stops when the process exits. Running as root
/// (CI), the cluster is made and run by the `postgres` user, as PostgreSQL
/// refuses root. So plain `swift test` runs PostgreSQL and never skips it.
enum PostgresCluster {
    /// A URL of the server's `postgres` database, for creating test databases.
    static func adminURL() throws -> String {
        try started.withLock { state in
            if let url = state { return url }
            let url = try ProcessInfo.processInfo.environment["FORMSTORE_TEST_POSTGRES_URL"] ?? start()
            state = url
            return url
        }
    }

    /// A new, empty database of its own for one test; its URL.
    static func freshDatabase() throws -> String {
        let admin = try adminURL()
        let name = "formstore_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let conn = try PostgresConnection(url: admin, preparesStatements: false)
        try conn.executeScript("CREATE DATABASE \(name)")
        return url(admin, database: name)
    }

    /// `admin` with its database replaced by `database`.
    private static func url(_ admin: String, database: String) -> String {
        let parts = admin.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let scheme = parts[0].range(of: "://") else { return admin }
        let authority = parts[0][scheme.upperBound...].prefix { $0 != "/" }
        let base = parts[0][..<authority.endIndex] + "/" + database
        return parts.count > 1 ? base + "?" + parts[1] : String(base)
    }

    private static let started = Mutex<String?>(nil)
    private nonisolated(unsafe) static var dataDirectory: String?
    private nonisolated(unsafe) static var binDirectory: String?

    private static func start() throws -> String {
        let bin = try findBinDirectory()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("formstore-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        if asRoot { try run("/bin/chown", ["postgres:postgres", root]) }
        let data = root + "/data"
        let port = try freePort()
        try runPostgresTool(bin + "/initdb", ["-D", data, "-U", "formstore", "-A", "trust", "--no-sync", "-E", "UTF8",
                                               "--locale=C"], asRoot: asRoot)
        try runPostgresTool(bin + "/pg_ctl", ["-D", data, "-l", root + "/log", "-w", "-o",
                                               "-k \(root) -h 127.0.0.1 -p \(port) -F -c max_connections=200",
                                               "start"], asRoot: asRoot)
        dataDirectory = data
        binDirectory = bin
        atexit {
            guard let data = PostgresCluster.dataDirectory, let bin = PostgresCluster.binDirectory else { return }
            try? PostgresCluster.runPostgresTool(bin + "/pg_ctl", ["-D", data, "-m", "immediate", "stop"],
                                                 asRoot: getuid() == 0)
            try? FileManager.default.removeItem(atPath: (data as NSString).deletingLastPathComponent)
        }
        // Over the Unix socket in the cluster's own directory, as a service on the same host would.
        return "postgresql://formstore@/postgres?host=\(root)&port=\(port)"
    }

    static func findBinDirectory() throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = "/usr/lib/postgresql/\(version)/bin"
            if FileManager.default.isExecutableFile(atPath: bin + "/initdb") { return bin }
        }
        throw ClusterError(message: "no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)")
    }

    fileprivate static func runPostgresTool(_ tool: String, _ arguments: [String], asRoot: Bool) throws {
        if asRoot {
            try run("/usr/sbin/runuser", ["-u", "postgres", "--", tool] + arguments)
        } else {
            try run(tool, arguments)
        }
    }

    /// Runs a tool to its end with posix_spawn and waitpid: Foundation's
    /// `Process` waits on a run loop, which tests running in parallel starve
    /// while they wait for the cluster. Output goes to a file, not a pipe: the
    /// server pg_ctl starts inherits it and would hold a pipe open.
    static func run(_ executable: String, _ arguments: [String]) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("formstore-pg-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeInheritedDescriptors(&actions)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ClusterError(message: "\(executable) could not start (errno \(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ClusterError(message: "\(executable) \(arguments.joined(separator: " ")) failed: \(text)")
        }
    }

    /// A port nobody listens on now: the kernel's pick for a socket bound to port 0.
    private static func freePort() throws -> Int { Int(try LoopbackSocket.freePort()) }

    struct ClusterError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
