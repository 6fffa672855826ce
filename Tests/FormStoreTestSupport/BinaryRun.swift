public import Foundation

/// What one run of a program (the built `formstore` binary, the `sqlite3`
/// shell) printed and returned.
public struct BinaryRun: CustomStringConvertible, Sendable {
    public var code: Int32
    public var output: String
    public var errors: String
    /// Ended by a signal (a crash), `code` being the signal's number.
    public var crashed = false

    public var description: String { "exit \(code)\nstdout: \(output)\nstderr: \(errors)" }
}

/// A program a test needs is not built (or not installed).
public struct MissingProgram: Error, CustomStringConvertible {
    public let description: String
}

/// An executable this package builds (`formstore`, `formstore-stress`), found
/// beside the test bundle or in `.build/debug`.
public func builtExecutable(_ name: String) -> String? {
    var candidates: [URL] = []
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
    candidates.append(URL(fileURLWithPath: packageRoot).appendingPathComponent(".build/debug/" + name))
    return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// The `formstore` binary under test: `FORMSTORE_BINARY` (a release build,
/// say), else the one this package built.
///
/// - throws: `MissingProgram` when it is not built.
public func formstoreBinary() throws -> String {
    if let path = ProcessInfo.processInfo.environment["FORMSTORE_BINARY"] { return path }
    guard let path = builtExecutable("formstore") else { throw MissingProgram(description: "the formstore binary is not built") }
    return path
}

/// Runs the built binary as a script would: stdin from a file (empty unless
/// given), stdout and stderr to files, so that no pipe can fill up and block.
public func runBinary(_ arguments: [String], stdin: String = "", environment extra: [String: String] = [:],
                      directory: String? = nil) throws -> BinaryRun {
    try runBinary(arguments, stdinData: Data(stdin.utf8), environment: extra, directory: directory)
}

/// Runs the built binary with any bytes (invalid UTF-8, NUL) on stdin.
public func runBinary(_ arguments: [String], stdinData: Data, environment extra: [String: String] = [:],
                      directory: String? = nil) throws -> BinaryRun {
    let scratch = try TemporaryDirectory()
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment.removeValue(forKey: "FORMSTORE_DB")
    // Sidecars and fallback drafts go to a folder of the run's own unless a test names one:
    // a test never writes into the machine's ~/.local/state.
    environment["XDG_STATE_HOME"] = scratch.path("state")
    environment.merge(extra) { $1 }
    return try spawn(try formstoreBinary(), arguments, stdin: stdinData, environment: environment,
                     directory: directory, scratch: scratch)
}

/// Runs the `sqlite3` shell (another client that shares nothing with FormStorage).
@discardableResult
/// Like an application's connection, it waits up to 5 s for another writer's
/// lock (`.timeout`) instead of failing at once on a busy machine.
public func sqlite3(_ database: String, _ arguments: [String] = [], input: String = "") throws -> String {
    let run = try runProcess("/usr/bin/env", ["sqlite3", "-bail", "-cmd", ".timeout 5000", database] + arguments, stdin: input)
    guard run.code == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: run.errors]) }
    return run.output
}

/// Runs any program to completion, in this process's environment.
public func runProcess(_ executable: String, _ arguments: [String], stdin: String = "") throws -> BinaryRun {
    try spawn(executable, arguments, stdin: Data(stdin.utf8), environment: ProcessInfo.processInfo.environment,
              directory: nil, scratch: try TemporaryDirectory())
}

/// Spawned with posix_spawn and waitpid, not `Process`, whose run loop tests
/// running in parallel starve: several can run at once from one test.
private func spawn(_ executable: String, _ arguments: [String], stdin: Data, environment: [String: String],
                   directory: String?, scratch: TemporaryDirectory) throws -> BinaryRun {
    let files = ["in", "out", "err"].map { scratch.path($0) }
    try stdin.write(to: URL(fileURLWithPath: files[0]))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, files[0], O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, files[1], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, files[2], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // Nothing else this process has open reaches the child: a script another test is
    // writing meanwhile would otherwise stay open for writing, and running it fail (ETXTBSY).
    closeInheritedDescriptors(&actions)
    // Glibc's addchdir is not visible to Swift: env(1) changes the directory, then runs the program.
    let (program, line) = directory.map { ("/usr/bin/env", ["/usr/bin/env", "--chdir=" + $0, executable]) }
        ?? (executable, [executable])
    let argv = (line + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, program, &actions, nil, argv, envp)
    guard spawned == 0 else { throw MissingProgram(description: "cannot run \(executable): error \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    // Exited normally: the code is in the second byte of the status; else the signal's number.
    let signal = status & 0x7f
    return BinaryRun(code: signal == 0 ? (status >> 8) & 0xff : signal,
                     output: String(decoding: try Data(contentsOf: URL(fileURLWithPath: files[1])), as: UTF8.self),
                     errors: String(decoding: try Data(contentsOf: URL(fileURLWithPath: files[2])), as: UTF8.self),
                     crashed: signal != 0)
}

/// Spawned with `actions`, a child gets no descriptor of this process past
/// the standard three: one another test holds open meanwhile (the write end
/// of a pipe it reads to its end, a script it is writing) stays open in the
/// child, and in any server the child leaves running (pg_ctl's), for as long
/// as that runs: the pipe's reader never saw its end, and the suite hung.
public func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    _ = addCloseFrom?(&actions, 3)
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which its Swift
/// module does not show, looked up once.
private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
private let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
    .map { unsafeBitCast($0, to: AddCloseFrom.self) }
