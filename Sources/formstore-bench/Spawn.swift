import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A finished child process: how it ended, how long it ran, its peak memory.
struct ChildRun {
    /// The exit code, or `nil` when a signal ended it.
    var exitCode: Int32?
    var wallSeconds: Double
    /// Peak resident memory in MiB: the last `VmHWM` read from
    /// /proc/PID/status while it ran (`waitSampling()`), else 0.
    ///
    /// Not `ru_maxrss` from `wait4`: after `posix_spawn` that includes the
    /// bench's own peak, which the child shared until its exec.
    var peakMiB: Double = 0
}

/// A child started by `posix_spawn`, its standard streams redirected.
struct Child {
    let pid: pid_t
    let started: UInt64

    /// Starts `arguments[0]` (a path) with the others. `stdoutDescriptor` is
    /// duplicated onto the child's stdout when given; stdin and stdout default
    /// to /dev/null, stderr is kept so failures are seen.
    init(_ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null",
         stdoutDescriptor: Int32? = nil, stderr: String? = nil, closing: [Int32] = []) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        if let stdoutDescriptor {
            posix_spawn_file_actions_adddup2(&actions, stdoutDescriptor, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        if let stderr { posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
        for fd in closing { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = monotonicNanoseconds()
        let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard code == 0 else { throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(code)))") }
        self.pid = pid
        self.started = start
    }

    /// Waits for the child to end.
    func wait() throws -> ChildRun {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4: \(String(cString: strerror(errno)))") }
        }
        let wall = Double(monotonicNanoseconds() - started) / 1e9
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
        let exited = status & 0x7f == 0
        return ChildRun(exitCode: exited ? (status >> 8) & 0xff : nil, wallSeconds: wall)
    }

    /// Waits for the child while reading its peak memory every millisecond
    /// (slower than `wait()`: not for timed runs).
    func waitSampling() throws -> ChildRun {
        var peakKiB = 0
        // Until it is a zombie (its memory gone) or reaped.
        while let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count >= 2, let kib = Int(fields[1]) { peakKiB = max(peakKiB, kib) }
            usleep(1000)
        }
        var result = try wait()
        result.peakMiB = Double(peakKiB) / 1024
        return result
    }
}

/// Runs a command to its end; throws unless it exits 0.
@discardableResult
/// Its stderr goes to `stderr` when given (a file), shown only if it fails.
func run(_ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null", stderr: String? = nil,
         samplingMemory: Bool = false) throws -> ChildRun {
    let child = try Child(arguments, stdin: stdin, stdout: stdout, stderr: stderr)
    let result = try samplingMemory ? child.waitSampling() : child.wait()
    guard result.exitCode == 0 else {
        let said = stderr.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
        throw BenchError("\(arguments.joined(separator: " ")) failed (exit \(result.exitCode.map(String.init) ?? "by signal")) \(said)")
    }
    return result
}

/// The full path of a program on $PATH, if it is installed.
func which(_ program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(program)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// The directory of the running executable (where the release `formstore` is too).
func executableDirectory() -> String {
    let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return (resolved as NSString).deletingLastPathComponent
}

/// The `sqlite-utils` command the import case measures against: `$FORMSTORE_BENCH_SQLITE_UTILS`,
/// else the one `Scripts/sqlite-utils-venv.sh` makes (run from the package's
/// directory; it installs sqlite-utils from PyPI the first time).
func sqliteUtilsCommand() throws -> String {
    if let named = ProcessInfo.processInfo.environment["FORMSTORE_BENCH_SQLITE_UTILS"], access(named, X_OK) == 0 {
        return named
    }
    let script = FileManager.default.currentDirectoryPath + "/Scripts/sqlite-utils-venv.sh"
    guard access(script, X_OK) == 0 else {
        throw BenchError("sqlite-utils is measured too: run the bench from the package's directory, where \(script) makes it, or name it in FORMSTORE_BENCH_SQLITE_UTILS")
    }
    let said = NSTemporaryDirectory() + "/formstore-bench-sqlite-utils-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: said) }
    _ = try run([script], stdout: said)
    let path = try String(contentsOfFile: said, encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
    guard access(path, X_OK) == 0 else { throw BenchError("\(script) made no sqlite-utils command (it printed '\(path)')") }
    return path
}
