import Foundation
import Testing

/// What one run of the built `formstore` binary printed and returned.
struct BinaryRun: CustomStringConvertible {
    var code: Int32
    var output: String
    var errors: String
    /// Ended by a signal (a crash), `code` being the signal's number.
    var crashed = false

    var description: String { "exit \(code)\nstdout: \(output)\nstderr: \(errors)" }
}

/// The package's root folder, found from this file's path
/// (Tests/FormStoreCLITests/Support/BinaryRun.swift).
let packageRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// An executable this package builds (`formstore`, `formstore-stress`), found
/// beside the test bundle or in `.build/debug`.
func builtExecutable(_ name: String) -> String? {
    var candidates: [URL] = []
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
    candidates.append(URL(fileURLWithPath: packageRoot).appendingPathComponent(".build/debug/" + name))
    return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs the built binary as a script would: stdin from a file (empty unless
/// given), stdout and stderr to files, so that no pipe can fill up and block.
func runBinary(_ arguments: [String], stdin: String = "", environment extra: [String: String] = [:],
               directory: String? = nil) throws -> BinaryRun {
    try runBinary(arguments, stdinData: Data(stdin.utf8), environment: extra, directory: directory)
}

/// Runs the built binary with any bytes (invalid UTF-8, NUL) on stdin.
func runBinary(_ arguments: [String], stdinData: Data, environment extra: [String: String] = [:],
               directory: String? = nil) throws -> BinaryRun {
    let path = try #require(BinaryTests.binaryPath(), "the formstore binary is not built")
    let scratch = try ScratchDirectory()
    let files = ["in", "out", "err"].map { scratch.path + "/" + $0 }
    try stdinData.write(to: URL(fileURLWithPath: files[0]))
    for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file, contents: nil) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment.removeValue(forKey: "FORMSTORE_DB")
    // Sidecars and fallback drafts go to a folder of the run's own unless a test names one:
    // a test never writes into the machine's ~/.local/state.
    environment["XDG_STATE_HOME"] = scratch.path + "/state"
    environment.merge(extra) { $1 }
    process.environment = environment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: files[0]))
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: files[1]))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: files[2]))
    try process.run()
    process.waitUntilExit()
    return BinaryRun(code: process.terminationStatus,
                     output: String(decoding: try Data(contentsOf: URL(fileURLWithPath: files[1])), as: UTF8.self),
                     errors: String(decoding: try Data(contentsOf: URL(fileURLWithPath: files[2])), as: UTF8.self),
                     crashed: process.terminationReason == .uncaughtSignal)
}

/// Runs the `sqlite3` shell (another client that shares nothing with FormStorage).
@discardableResult
func sqlite3(_ database: String, _ arguments: [String] = [], input: String = "") throws -> String {
    let run = try runProcess("/usr/bin/env", ["sqlite3", "-bail", database] + arguments, stdin: input)
    guard run.code == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: run.errors]) }
    return run.output
}

/// Runs any program to completion.
func runProcess(_ executable: String, _ arguments: [String], stdin: String = "") throws -> BinaryRun {
    let scratch = try ScratchDirectory()
    let files = ["in", "out", "err"].map { scratch.path + "/" + $0 }
    try stdin.write(toFile: files[0], atomically: false, encoding: .utf8)
    for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file, contents: nil) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: files[0]))
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: files[1]))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: files[2]))
    try process.run()
    process.waitUntilExit()
    return BinaryRun(code: process.terminationStatus,
                     output: try String(contentsOfFile: files[1], encoding: .utf8),
                     errors: try String(contentsOfFile: files[2], encoding: .utf8))
}
