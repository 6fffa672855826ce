import FormStoreTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `formstore serve` running as a child process on a port the system chose,
/// stopped (SIGINT) when the test lets go of it.
final class ServeRun {
    let process = Process()
    let port: UInt16
    /// The token printed at start (`--token`).
    let token: String?
    let scratch: TemporaryDirectory
    let outputPath: String

    /// Starts the server on `db` and waits until it says where it listens.
    init(_ db: DemoDatabase, _ arguments: [String] = [], environment extra: [String: String] = [:]) throws {
        let path = try formstoreBinary()
        scratch = try TemporaryDirectory()
        outputPath = scratch.path + "/out"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: scratch.path + "/err", contents: nil)
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--db", db.path, "--forms", db.formsDirectory, "serve", "--listen", "127.0.0.1:0"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = db.stateDirectory
        environment.removeValue(forKey: "FORMSTORE_DB")
        environment.merge(extra) { $1 }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path + "/err"))
        try process.run()
        var found: (UInt16, String?)?
        for _ in 0..<400 where found == nil && process.isRunning {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: "at http://127.0.0.1:"), let slash = text[range.upperBound...].firstIndex(of: "/"),
               let port = UInt16(text[range.upperBound..<slash]) {
                let token = text.range(of: "Token: ").map { String(text[$0.upperBound...].prefix(64)) }
                if arguments.contains("--token") && token?.count != 64 { usleep(25_000); continue }
                found = (port, token)
            } else {
                usleep(25_000)
            }
        }
        guard let found else {
            process.terminate()
            let errors = (try? String(contentsOfFile: scratch.path + "/err", encoding: .utf8)) ?? ""
            throw HTTPClient.Failure(description: "serve did not start: \(errors)")
        }
        (port, token) = found
    }

    var errors: String { (try? String(contentsOfFile: scratch.path + "/err", encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
        }
    }
}
